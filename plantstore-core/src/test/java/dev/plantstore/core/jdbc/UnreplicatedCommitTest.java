package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.testkit.PostgresAsPostgres;
import dev.plantstore.testkit.Sockets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A PostgreSQL server of the test's own whose synchronous standby is gone, as when a standby's machine is lost: every
 * commit waits for it until the statement's time-out cancels the wait, and PostgreSQL then keeps the commit with a
 * warning that it "has already committed locally, but might not have been replicated". The store never calls that a
 * success.
 */
class UnreplicatedCommitTest {

    /** The statements give up after 1 s, well before a caller gives up: the warned commit reaches the writer first. */
    private static final Duration STORE_TIMEOUT = Duration.ofMillis(1_900);

    @Test
    void aCommitNotConfirmedByTheSynchronousStandbyIsUnavailableNeverASuccess() throws Exception {
        try (var servers = PostgresAsPostgres.prepare(Map.of())) {
            var dataSource = new PGSimpleDataSource();
            dataSource.setUrl(servers.startServer("primary", Sockets.freePort(), Map.of()));
            dataSource.setSocketTimeout(10);
            try (var store = new JdbcPlantStore(dataSource, STORE_TIMEOUT, CommitListener.NONE)) {
                assertTrue(store.create(new NewPlant(1, "replicated")) instanceof CreateResult.Created);
                waitForAStandbyThatIsGone(dataSource);

                var unavailable = assertThrows(StoreUnavailableException.class,
                        () -> store.create(new NewPlant(2, "committed here only")));
                assertTrue(FaultLog.reason(unavailable).contains("might not have been replicated"),
                        FaultLog.reason(unavailable));
                assertEquals(Optional.of(new Plant("committed here only", null)), store.find(2),
                        "the server kept the commit: only its warning says it was not replicated");
                assertFalse(store.isAvailable(), "not ready while commits cannot be replicated");
                var next = assertThrows(StoreUnavailableException.class, () -> store.create(new NewPlant(3, "next")));
                assertTrue(FaultLog.reason(next).contains("replicated"), FaultLog.reason(next));
            }
        }
    }

    /** What an operator's configuration says when the standby named in it is not there. */
    private static void waitForAStandbyThatIsGone(PGSimpleDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("ALTER SYSTEM SET synchronous_standby_names = 'standby_that_is_gone'");
            statement.execute("SELECT pg_reload_conf()");
        }
    }
}
