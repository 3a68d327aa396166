package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.core.CommitListener;
import dev.plantstore.core.CreateResult;
import dev.plantstore.core.Databases;
import dev.plantstore.core.FaultyDataSource;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PostgresPlantEventsTest extends JdbcPlantEventsContract {

    private TestPostgres postgres;
    private HikariDataSource pool;

    @BeforeEach
    void freshSchema() {
        postgres = TestPostgres.freshSchema();
        pool = Databases.pooled(postgres);
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

    @Override
    protected EventStore newStore() {
        return storeOn(pool);
    }

    private static EventStore storeOn(DataSource dataSource) {
        var store = new JdbcPlantStore(dataSource, Duration.ofSeconds(5), CommitListener.NONE, RECEIVERS);
        return new EventStore(store, store.outbox());
    }

    @Test
    void aBatchWithEventsIsStillOneRoundTrip() throws Exception {
        var counting = new CountingDataSource();
        var gate = new FaultyDataSource(counting.wrap(Databases.postgres(postgres)));
        EventStore events = storeOn(gate);
        try (var batched = events.store()) {
            List<CompletableFuture<CreateResult>> queued = StuckWriter.queueBehindAStuckBatch(batched, gate, 50);
            int before = counting.roundTrips();
            gate.open();
            for (CompletableFuture<CreateResult> create : queued) {
                assertTrue(create.get() instanceof CreateResult.Created);
            }
            assertEquals(2, counting.roundTrips() - before);
            assertEquals(51, drain(events.outbox(), RECEIVERS.get(1)).size());
        }
    }

    @Test
    void twoInstancesNeverHoldTheSameEventAtOnce() throws Exception {
        EventStore one = open();
        EventStore two = closedAfterTheTest(storeOn(Databases.postgres(postgres)));
        for (int id = 0; id < 40; id++) {
            one.store().create(new NewPlant(id, "P" + id));
        }
        long now = System.currentTimeMillis();
        Set<Long> seen = new HashSet<>();
        var first = CompletableFuture.supplyAsync(() -> one.outbox().claim(RECEIVERS.get(0), now, 25));
        var second = CompletableFuture.supplyAsync(() -> two.outbox().claim(RECEIVERS.get(0), now, 25));
        for (PlantEvent event : first.get()) {
            assertTrue(seen.add(event.seq()));
        }
        for (PlantEvent event : second.get()) {
            assertTrue(seen.add(event.seq()), "event " + event.seq() + " claimed by both instances");
        }
        assertEquals(40, seen.size());
    }

    @Test
    void anEventLeasedByAnInstanceThatDiedIsTakenOverOnceTheLeaseEnds() throws Exception {
        EventStore one = open();
        EventStore two = closedAfterTheTest(storeOn(Databases.postgres(postgres)));
        one.store().create(new NewPlant(1, "Monstera"));
        long now = System.currentTimeMillis();
        assertEquals(1, one.outbox().claim(RECEIVERS.get(0), now, 10).size());
        assertEquals(List.of(), two.outbox().claim(RECEIVERS.get(0), now + 1_000, 10));
        List<PlantEvent> takenOver = two.outbox().claim(RECEIVERS.get(0), now + Outbox.LEASE.toMillis() + 1, 10);
        assertEquals(1, takenOver.size());
    }

    @Test
    void aStoreWithoutWebhooksRecordsNoEvent() throws Exception {
        DataSource dataSource = Databases.postgres(postgres);
        try (var store = PlantStores.jdbc(dataSource)) {
            store.create(new NewPlant(1, "Monstera"));
            store.delete(1);
        }
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT count(*) FROM webhook_outbox")) {
            count.next();
            assertEquals(0, count.getInt(1));
        }
    }
}
