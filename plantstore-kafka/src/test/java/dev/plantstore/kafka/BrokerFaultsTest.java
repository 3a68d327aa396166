package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker failing under a store on SQLite: down when the store starts, and killed with SIGKILL under a load of
 * writes and started again. Each test has a broker of its own, which it kills; nothing acknowledged is lost. Heavy:
 * two brokers' starts and a restart each, a minute or two on this machine.
 */
@Tag("heavy")
class BrokerFaultsTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String TOPIC = "plant-events";

    @TempDir
    Path dir;

    private KafkaBroker broker;
    private PlantStore store;
    private final CapturedLog log = CapturedLog.of(BrokerHealth.LOG.getName());

    @BeforeEach
    void startBroker() throws Exception {
        broker = KafkaBroker.start(dir.resolve("broker"));
        broker.createTopic(TOPIC, 3);
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        broker.close();
        log.close();
    }

    private PlantStore open() {
        store = PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")),
                JdbcStoreSettings.defaults().withSink(KafkaSink.to(broker.bootstrapServers(), TOPIC)));
        return store;
    }

    @Test
    void brokersDownAtStartAreOneLineTheWritesGoOnAndTheEventsFollowOnceTheyAreBack() throws Exception {
        broker.kill();
        open();
        for (int id = 1; id <= 5; id++) {
            store.create(new NewPlant(id, "Plant " + id));
        }
        assertTrue(store.isAvailable());
        assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("cannot be reached").isEmpty()), messages()
                .toString());
        assertTrue(log.messagesWith("cannot be reached").get(0).contains("the brokers at "
                + broker.bootstrapServers()), messages().toString());

        broker.restart();
        List<KafkaBroker.Event> records = broker.read(TOPIC, 5, WAIT);
        assertEquals(List.of("1", "2", "3", "4", "5"), records.stream().map(KafkaBroker.Event::key).sorted().distinct()
                .toList());
        assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("recovered").isEmpty()), messages().toString());
        assertEquals(1, log.records().stream().filter(record -> record.getLevel() == Level.SEVERE).count(),
                messages().toString());
        assertEquals(1, log.messagesWith("recovered").size(), messages().toString());
    }

    @Test
    void aBrokerKilledUnderLoadAndStartedAgainLosesNoAcknowledgedWriteAndKeepsEachPlantsOrder() throws Exception {
        open();
        List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        var writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            int id = 0;
            while (writing.get()) {
                id++;
                store.create(new NewPlant(id, "Plant " + id));
                acknowledged.add(id + " plant.created");
                if (id % 3 == 0) {
                    store.delete(id);
                    acknowledged.add(id + " plant.deleted");
                }
            }
        });
        writer.start();
        assertTrue(Poll.until(WAIT, LOOK, () -> acknowledged.size() > 300));
        broker.kill();
        int atKill = acknowledged.size();
        assertTrue(Poll.until(WAIT, LOOK, () -> acknowledged.size() > atKill + 300));
        broker.restart();
        int atRestart = acknowledged.size();
        assertTrue(Poll.until(WAIT, LOOK, () -> acknowledged.size() > atRestart + 300));
        writing.set(false);
        writer.join();

        List<KafkaBroker.Event> records = broker.read(TOPIC, acknowledged.size(), WAIT);
        Map<String, String> valueById = new HashMap<>();
        Map<String, List<String>> perPlant = new LinkedHashMap<>();
        for (var record : records) {
            String id = record.header("ce_id");
            String seen = valueById.putIfAbsent(id, record.header("ce_type") + " " + record.key());
            if (seen == null) {
                perPlant.computeIfAbsent(record.key(), key -> new ArrayList<>())
                        .add(record.key() + " " + record.header("ce_type"));
            } else {
                assertEquals(seen, record.header("ce_type") + " " + record.key(),
                        "a duplicate differs from its first");
            }
        }
        List<String> delivered = perPlant.values().stream().flatMap(List::stream).sorted().toList();
        assertEquals(acknowledged.stream().sorted().toList(), delivered);
        perPlant.forEach((plant, events) -> assertEquals(events.get(0), plant + " plant.created",
                "plant " + plant + "'s events came as " + events));
    }

    private List<String> messages() {
        return log.records().stream().map(record -> record.getLevel() + " " + record.getMessage()).toList();
    }
}
