package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A store that cannot be opened is one clear line, and that line never holds a password. */
class OpenStoreTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdbc:postgresql://app:hunter2@127.0.0.1:1/plants",
            "jdbc:postgresql://127.0.0.1:1/plants?user=app&password=hunter2&sslpassword=hunter2"})
    void anUnreachableDatabaseIsReportedWithoutItsPassword(String url) {
        var failure = assertThrows(StartupException.class,
                () -> OpenStore.open(new StoreSpec.Postgres(url), Options.Secrets.NONE));
        assertTrue(failure.getMessage().startsWith("cannot open store jdbc:postgresql://127.0.0.1:1/plants: "),
                failure.getMessage());
        assertFalse(failure.getMessage().contains("hunter2"), failure.getMessage());
    }

    /** The pool's connection time-out is 2 s, and closing a pool whose filler is still trying took 5 s more. */
    @Test
    void aDatabaseThatRefusesAtOnceIsReportedAtOnce() {
        long start = System.nanoTime();
        var failure = assertThrows(StartupException.class,
                () -> OpenStore.open(new StoreSpec.Postgres("jdbc:postgresql://127.0.0.1:1/plants"),
                        Options.Secrets.NONE));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(failure.getMessage().endsWith(": Connection refused"), failure.getMessage());
        assertTrue(took.compareTo(OpenStore.CONNECTION_TIMEOUT) < 0,
                "reported in " + took.toMillis() + " ms, before a connection attempt could even time out");
    }
}
