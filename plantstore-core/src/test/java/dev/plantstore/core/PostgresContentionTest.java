package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two stores on one PostgreSQL database, as two server instances are, with clients on each creating and deleting
 * the same few ids at random. Their group-commit writers must never deadlock, and no client may see a failure.
 * {@code -Dplantstore.contention.seconds=60} runs the full-length version.
 */
class PostgresContentionTest {

    private static final int CLIENTS_PER_INSTANCE = 32;
    private static final int SHARED_IDS = 200;
    private static final long SECONDS = Long.getLong("plantstore.contention.seconds", 8);

    private TestPostgres postgres;

    @BeforeEach
    void createSchema() {
        postgres = TestPostgres.freshSchema();
    }

    @AfterEach
    void dropSchema() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void twoInstancesWritingTheSameIdsNeverDeadlockAndNeverFail() throws Exception {
        long deadlocksBefore = deadlocks();
        var failures = new AtomicLong();
        var operations = new AtomicLong();
        try (HikariDataSource firstPool = Databases.pooled(postgres);
             HikariDataSource secondPool = Databases.pooled(postgres);
             PlantStore first = PlantStores.jdbc(firstPool);
             PlantStore second = PlantStores.jdbc(secondPool)) {
            ExecutorService clients = Executors.newFixedThreadPool(2 * CLIENTS_PER_INSTANCE);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < 2 * CLIENTS_PER_INSTANCE; c++) {
                PlantStore store = c % 2 == 0 ? first : second;
                running.add(clients.submit(() -> {
                    var random = ThreadLocalRandom.current();
                    while (System.nanoTime() < end) {
                        long id = random.nextInt(SHARED_IDS);
                        try {
                            if (random.nextBoolean()) {
                                store.create(new NewPlant(id, "plant " + random.nextInt(3)));
                            } else {
                                store.delete(id);
                            }
                        } catch (StoreUnavailableException e) {
                            failures.incrementAndGet();
                        }
                        operations.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
            clients.shutdown();
        }
        System.out.printf("contention: %d operations in %d s, %d failed, %d deadlocks%n",
                operations.get(), SECONDS, failures.get(), deadlocks() - deadlocksBefore);
        assertTrue(operations.get() > 1_000, operations + " operations");
        assertEquals(0, failures.get(), "operations answered StoreUnavailableException (503)");
        assertEquals(0, deadlocks() - deadlocksBefore, "deadlocks PostgreSQL detected in this database");
    }

    /** PostgreSQL's count of deadlocks detected in the test database since its statistics were reset. */
    private static long deadlocks() throws Exception {
        try (Connection connection = DriverManager.getConnection(TestPostgres.url());
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(
                     "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")) {
            row.next();
            return row.getLong(1);
        }
    }
}
