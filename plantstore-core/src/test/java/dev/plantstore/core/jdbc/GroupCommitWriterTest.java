package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.FaultyDataSource;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDBC store's writer thread: it fails loudly, lives on, and never leaves a caller waiting for its time-out. */
class GroupCommitWriterTest {

    /** Long enough that a write failed "at once" can never be mistaken for one that timed out. */
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void anErrorFailsOnlyItsBatchAndTheWriterGoesOn() {
        var dataSource = new FaultyDataSource(DurableSqlite.dataSource(dir.resolve("plants.db")));
        try (PlantStore store = PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withTimeout(STORE_TIMEOUT))) {
            var injected = new LinkageError("injected into the writer");
            dataSource.failNextWith(injected);
            var failed = assertThrows(StoreUnavailableException.class, () -> store.create(new NewPlant(1, "Fern")));
            assertSame(injected, failed.getCause());
            assertEquals(new CreateResult.Created(new Plant("Moss", null)), store.create(new NewPlant(2, "Moss")));
            assertTrue(store.isAvailable());
        }
    }

    @Test
    void interruptingTheWriterFailsEveryQueuedWriteAtOnceAndTheStoreReportsItself() throws Exception {
        var dataSource = new FaultyDataSource(DurableSqlite.dataSource(dir.resolve("plants.db")));
        try (PlantStore store = PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withTimeout(STORE_TIMEOUT))) {
            List<CompletableFuture<CreateResult>> queued = StuckWriter.queueBehindAStuckBatch(store, dataSource, 3);
            writerThread().interrupt();
            for (CompletableFuture<CreateResult> write : queued) {
                assertFailsBeforeTheTimeOut(write);
            }
            assertFalse(store.isAvailable());
            var refused = assertThrows(StoreUnavailableException.class, () -> store.create(new NewPlant(9, "Fern")));
            assertEquals("the plant store is closed", refused.getMessage());
        }
    }

    @Test
    void closeFailsEveryQueuedWriteAtOnce() throws Exception {
        var dataSource = new FaultyDataSource(DurableSqlite.dataSource(dir.resolve("plants.db")));
        PlantStore store = PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withTimeout(STORE_TIMEOUT));
        List<CompletableFuture<CreateResult>> queued = StuckWriter.queueBehindAStuckBatch(store, dataSource, 3);
        var closing = CompletableFuture.runAsync(store::close);
        for (CompletableFuture<CreateResult> write : queued) {
            assertFailsBeforeTheTimeOut(write);
        }
        dataSource.open();
        closing.get(STORE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static void assertFailsBeforeTheTimeOut(CompletableFuture<CreateResult> write) throws Exception {
        var failure = assertThrows(ExecutionException.class,
                () -> write.get(STORE_TIMEOUT.toMillis() / 2, TimeUnit.MILLISECONDS));
        assertEquals("the plant store is closed", failure.getCause().getMessage());
    }

    /** The writer of the store under test: the one stuck in this test's data source. */
    private static Thread writerThread() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(thread -> thread.getKey().getName().equals("plantstore-group-commit"))
                .filter(thread -> List.of(thread.getValue()).stream()
                        .anyMatch(frame -> frame.getClassName().equals(FaultyDataSource.class.getName())))
                .map(java.util.Map.Entry::getKey)
                .findFirst().orElseThrow();
    }
}
