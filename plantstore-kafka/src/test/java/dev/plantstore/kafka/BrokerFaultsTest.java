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
import java.util.List;
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
        try (AcknowledgedWrites writes = AcknowledgedWrites.start(store)) {
            assertTrue(Poll.until(WAIT, LOOK, () -> writes.count() > 300));
            broker.kill();
            int atKill = writes.count();
            assertTrue(Poll.until(WAIT, LOOK, () -> writes.count() > atKill + 300));
            broker.restart();
            int atRestart = writes.count();
            assertTrue(Poll.until(WAIT, LOOK, () -> writes.count() > atRestart + 300));
            writes.stop();
            writes.assertEachOnTheTopicInOrder(broker.read(TOPIC, writes.count(), WAIT));
        }
    }

    private List<String> messages() {
        return log.records().stream().map(record -> record.getLevel() + " " + record.getMessage()).toList();
    }
}
