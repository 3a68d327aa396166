package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store that cannot be opened is one clear line, and that line never holds a password; what a store holds open is
 * closed by the server's one {@link Closing}.
 */
class OpenStoreTest {

    @TempDir
    Path dir;

    private final Closing closing = new Closing();
    private final List<String> closeFailures = new ArrayList<>();

    @AfterEach
    void closeWhatWasOpened() {
        closing.closeAll(closeFailures::add);
        assertEquals(List.of(), closeFailures);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdbc:postgresql://app:hunter2@127.0.0.1:1/plants",
            "jdbc:postgresql://127.0.0.1:1/plants?user=app&password=hunter2&sslpassword=hunter2"})
    void anUnreachableDatabaseIsReportedWithoutItsPassword(String url) {
        var failure = assertThrows(StartupException.class,
                () -> DefaultStore.open(new StoreSpec.Postgres(url), closing));
        assertTrue(failure.getMessage().startsWith("cannot open store jdbc:postgresql://127.0.0.1:1/plants: "),
                failure.getMessage());
        assertFalse(failure.getMessage().contains("hunter2"), failure.getMessage());
    }

    /**
     * The pool's connection time-out is 2 s: a pool that retried a refusal would take it whole. The first open in a JVM
     * loads the pool's and the driver's classes, seconds on a busy machine; that is not what the bound is about, so one
     * refused open is made first.
     */
    @Test
    void aDatabaseThatRefusesAtOnceIsReportedAtOnce() {
        var spec = new StoreSpec.Postgres("jdbc:postgresql://127.0.0.1:1/plants");
        assertThrows(StartupException.class, () -> DefaultStore.open(spec, closing));
        long start = System.nanoTime();
        var failure = assertThrows(StartupException.class, () -> DefaultStore.open(spec, closing));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(failure.getMessage().endsWith(": Connection refused"), failure.getMessage());
        assertTrue(took.compareTo(OpenStore.CONNECTION_TIMEOUT) < 0,
                "reported in " + took.toMillis() + " ms, before a connection attempt could even time out");
    }

    @Test
    void aSqliteStoreHoldsItsFileUntilItsClosingCloses() throws Exception {
        var spec = new StoreSpec.Sqlite(dir.resolve("plants.db"));
        DefaultStore.open(spec, closing);

        var second = new Closing();
        var inUse = assertThrows(StartupException.class, () -> DefaultStore.open(spec, second));
        assertTrue(inUse.getMessage().contains("is in use by another process"), inUse.getMessage());
        assertTrue(second.closeAll(closeFailures::add));

        assertTrue(closing.closeAll(closeFailures::add));
        var reopened = DefaultStore.open(spec, closing);
        assertEquals(CreateResult.Created.class, reopened.create(new NewPlant(1, "Fern")).getClass());
    }

    /**
     * SQLite would create the file the link names, under a name whose lock the link's server never took: a server
     * started on that name beside it would find its lock free.
     */
    @Test
    void aSymbolicLinkToAFileThatDoesNotExistIsRefused() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("link.db"), Path.of("plants.db"));

        var refused = assertThrows(StartupException.class,
                () -> DefaultStore.open(new StoreSpec.Sqlite(link), closing));

        assertEquals("cannot open store sqlite:" + link + ": it is a symbolic link to a file that does not "
                + "exist: name the file itself to create the store", refused.getMessage());
        assertFalse(Files.exists(dir.resolve("plants.db")));
    }

    @Test
    void whatAStoreOpenedBeforeItFailedIsLeftToItsClosing() throws Exception {
        // A directory where the database file should be: the lock file opens, the database does not.
        Path database = Files.createDirectory(dir.resolve("plants.db"));
        var spec = new StoreSpec.Sqlite(database);
        assertThrows(StartupException.class, () -> DefaultStore.open(spec, closing));

        var inUse = assertThrows(StartupException.class,
                () -> DefaultStore.open(spec, new Closing()));
        assertTrue(inUse.getMessage().contains("is in use by another process"), inUse.getMessage());
        assertTrue(closing.closeAll(closeFailures::add));
        var released = assertThrows(StartupException.class,
                () -> DefaultStore.open(spec, closing));
        assertFalse(released.getMessage().contains("is in use by another process"), released.getMessage());
    }
}
