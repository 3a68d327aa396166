package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** {@link PlantStore#isAvailable()} is false exactly while a write cannot commit, and true again by itself. */
class StoreHealthTest {

    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @Test
    void aFullDiskMakesTheStoreUnavailableUntilThereIsRoomAgain() throws Exception {
        var dataSource = DurableSqlite.dataSource(dir.resolve("plants.db"));
        try (PlantStore store = PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withTimeout(STORE_TIMEOUT))) {
            store.create(new NewPlant(1, "Fern"));
            dataSource.setMaxPageCount(pageCount(dataSource));
            String longName = "x".repeat(2_000);
            // SQLite answers SQLITE_FULL once the file would have to grow past max_page_count: a disk that is full.
            assertThrows(StoreUnavailableException.class, () -> {
                for (int id = 2; id < 1_000; id++) {
                    store.create(new NewPlant(id, longName));
                }
            });
            assertFalse(store.isAvailable());
            assertFalse(store.isAvailable(), "a probe still cannot commit");

            dataSource.setMaxPageCount(1_000_000);
            awaitTrue(store::isAvailable, "available once there is room");
            assertEquals(new CreateResult.Created(new Plant(longName, null)),
                    store.create(new NewPlant(5_000, longName)));
        }
    }

    @Test
    void aTableLockHeldPastTheTimeOutMakesTheStoreUnavailableUntilItIsReleased() throws Exception {
        try (TestPostgres postgres = TestPostgres.freshSchema();
             PlantStore store = PlantStores.jdbc(Databases.postgres(postgres),
                     JdbcStoreSettings.defaults().withTimeout(STORE_TIMEOUT));
             Connection locker = DriverManager.getConnection(postgres.databaseUrl())) {
            assertTrue(store.isAvailable());
            locker.setAutoCommit(false);
            try (Statement lock = locker.createStatement()) {
                lock.execute("LOCK TABLE " + postgres.schema() + ".plants IN ACCESS EXCLUSIVE MODE");
            }
            var blocked = CompletableFuture.supplyAsync(() -> store.create(new NewPlant(1, "Fern")));
            var failure = assertThrows(Exception.class,
                    () -> blocked.get(STORE_TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS));
            assertTrue(failure.getCause() instanceof StoreUnavailableException, failure.toString());
            assertFalse(store.isAvailable());

            locker.rollback();
            awaitTrue(store::isAvailable, "available once the lock is released");
            assertEquals(new CreateResult.Created(new Plant("Moss", null)), store.create(new NewPlant(2, "Moss")));
        }
    }

    @Test
    void aDatabaseThatCannotBeReachedMakesTheStoreUnavailable() throws Exception {
        var dataSource = new FaultyDataSource(DurableSqlite.dataSource(dir.resolve("plants.db")));
        try (PlantStore store = PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withTimeout(STORE_TIMEOUT))) {
            dataSource.failNextWith(new java.sql.SQLException("connection refused"));
            assertFalse(store.isAvailable());
            assertTrue(store.isAvailable());
        }
    }

    private static int pageCount(SQLiteDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("PRAGMA page_count")) {
            row.next();
            return row.getInt(1);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.onSpinWait();
        }
    }
}
