package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.core.CreateResult;
import dev.plantstore.core.Databases;
import dev.plantstore.core.FaultyDataSource;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStoreContract;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PostgresPlantStoreTest extends PlantStoreContract {

    private TestPostgres postgres;
    private HikariDataSource pool;

    @Override
    protected PlantStore newStore() {
        postgres = TestPostgres.freshSchema();
        pool = Databases.pooled(postgres);
        return PlantStores.jdbc(pool);
    }

    @Override
    protected int concurrencyIds() {
        return 300;
    }

    @AfterEach
    void dropSchema() {
        if (pool != null) {
            pool.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void aBatchIsOneRoundTripWhateverItsSize() throws Exception {
        var counting = new CountingDataSource();
        var gate = new FaultyDataSource(counting.wrap(Databases.postgres(postgres)));
        try (var batched = PlantStores.jdbc(gate)) {
            List<CompletableFuture<CreateResult>> queued = StuckWriter.queueBehindAStuckBatch(batched, gate, 50);
            int before = counting.roundTrips();
            gate.open();
            for (CompletableFuture<CreateResult> create : queued) {
                assertTrue(create.get() instanceof CreateResult.Created);
            }
            // The first batch (one create) and the second (fifty), the commits included.
            assertEquals(2, counting.roundTrips() - before);
        }
    }

    /** A read waits on the database no longer than a write does: a table locked elsewhere is a 503, not a hang. */
    @Test
    void aReadGivesUpAfterTheStoresTimeOut() throws Exception {
        try (var store = PlantStores.jdbc(Databases.postgres(postgres),
                JdbcStoreSettings.defaults().withTimeout(Duration.ofSeconds(1)));
             Connection locker = Databases.postgres(postgres).getConnection();
             Statement lock = locker.createStatement()) {
            locker.setAutoCommit(false);
            lock.execute("LOCK TABLE plants IN ACCESS EXCLUSIVE MODE");
            long start = System.nanoTime();
            assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> assertThrows(StoreUnavailableException.class, () -> store.find(1)),
                    "a read of a locked table gives up");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "gave up after " + took.toMillis() + " ms");
            locker.rollback();
        }
    }

    /**
     * After a switchover the pool still holds connections to the old primary, which refuses writes as read-only: each
     * is dropped at its first refusal and the write commits on a connection to the primary, within the request.
     */
    @Test
    void aConnectionToAServerThatNoLongerTakesWritesIsDroppedAndTheWriteCommitsOnTheNext() throws Exception {
        try (var pool = new PoolAfterASwitchover(Databases.postgres(postgres));
             var store = PlantStores.jdbc(pool.dataSource())) {
            assertTrue(store.create(new NewPlant(1, "before")) instanceof CreateResult.Created);
            pool.switchOver(3);
            assertEquals(3, pool.openToTheOldPrimary());
            long start = System.nanoTime();
            assertTrue(store.create(new NewPlant(2, "after")) instanceof CreateResult.Created);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(0, pool.openToTheOldPrimary(), "every connection to the old primary was dropped");
            assertTrue(took.compareTo(Duration.ofSeconds(1)) < 0, "committed after " + took.toMillis() + " ms");
            assertTrue(store.isAvailable());
            assertEquals(Optional.of(new Plant("after", null)), store.find(2));
        }
    }

    @Test
    void writesOfOneIdInOneBatchKeepTheirOrder() throws Exception {
        var gate = new FaultyDataSource(Databases.postgres(postgres));
        try (var batched = PlantStores.jdbc(gate)) {
            StuckWriter.assertWritesOfOneIdInOneBatchKeepTheirOrder(batched, gate);
        }
    }

    @Test
    void twoStoresOnOneDatabaseSeeEachOthersWrites() {
        try (var other = PlantStores.jdbc(Databases.postgres(postgres))) {
            store.create(new NewPlant(1, "Fern"));
            assertEquals(new CreateResult.Duplicate(1), other.create(new NewPlant(1, "Moss")));
            assertEquals(true, other.delete(1));
            assertEquals(false, store.delete(1));
            assertEquals(Optional.empty(), store.find(1));
        }
    }
}
