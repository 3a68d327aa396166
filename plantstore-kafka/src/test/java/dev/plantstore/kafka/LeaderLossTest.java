package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.KafkaCluster;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition's leader killed with SIGKILL under a load of writes, on a cluster of three nodes whose topic has three
 * replicas and {@code min.insync.replicas=2}: another replica leads, and every acknowledged write is on the topic, in
 * order per plant, a duplicate only as the same event (its {@code ce_id}). Heavy: three brokers.
 */
@Tag("heavy")
class LeaderLossTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String TOPIC = "plant-events";

    @TempDir
    Path dir;

    private KafkaCluster cluster;
    private PlantStore store;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = KafkaCluster.start(dir.resolve("cluster"), 3);
        cluster.createTopic(TOPIC, 3, 3, Map.of("min.insync.replicas", "2"));
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        cluster.close();
    }

    @Test
    void aPartitionLeaderKilledUnderLoadLosesNoAcknowledgedWriteAndKeepsEachPlantsOrder() throws Exception {
        store = PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")),
                JdbcStoreSettings.defaults().withSink(KafkaSink.to(cluster.bootstrapServers(), TOPIC)));
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
        KafkaBroker leader = cluster.leaderOf(TOPIC, 0);
        leader.kill();
        int atKill = acknowledged.size();
        assertTrue(Poll.until(WAIT, LOOK, () -> acknowledged.size() > atKill + 600));
        writing.set(false);
        writer.join();

        List<KafkaBroker.Event> records = cluster.read(TOPIC, acknowledged.size(), WAIT);
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
        assertTrue(cluster.leaderOf(TOPIC, 0).nodeId() != leader.nodeId(), "partition 0 kept its killed leader");
    }
}
