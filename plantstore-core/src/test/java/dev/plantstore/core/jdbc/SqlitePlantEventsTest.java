package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlitePlantEventsTest extends JdbcPlantEventsContract {

    @TempDir
    Path dir;

    @Override
    protected EventStore newStore() {
        var store = new JdbcPlantStore(DurableSqlite.dataSource(dir.resolve("plants.db")), Duration.ofSeconds(5),
                CommitListener.NONE, RECEIVERS);
        return new EventStore(store, store.outbox());
    }

    @Test
    void eventsOutliveTheStoreThatRecordedThem() throws Exception {
        EventStore first = open();
        first.store().create(new NewPlant(1, "Monstera"));
        first.store().close();
        EventStore reopened = open();
        assertEquals(List.of("plant.created 1 Monstera"), drain(reopened.outbox(), RECEIVERS.get(0)));
    }

    @Test
    void writesSucceedWhileTheDeliveryUpdatesTheOutboxBesideThem() throws Exception {
        EventStore events = open();
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        var delivery = java.util.concurrent.CompletableFuture.runAsync(() -> {
            while (!stop.get()) {
                for (PlantEvent event : events.outbox().claim(RECEIVERS.get(0), System.currentTimeMillis(), 16)) {
                    events.outbox().reschedule(List.of(event), 0, true);
                }
            }
        });
        try {
            for (int id = 0; id < 300; id++) {
                events.store().create(new NewPlant(id, "Plant " + id));
            }
        } finally {
            stop.set(true);
        }
        delivery.get();
    }

    @Test
    void aStoreWithoutWebhooksRecordsNoEvent() throws Exception {
        DataSource dataSource = DurableSqlite.dataSource(dir.resolve("plants.db"));
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
