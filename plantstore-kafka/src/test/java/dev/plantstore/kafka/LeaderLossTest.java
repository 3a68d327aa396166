package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.KafkaCluster;
import dev.plantstore.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
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
        try (AcknowledgedWrites writes = AcknowledgedWrites.start(store)) {
            assertTrue(Poll.until(WAIT, LOOK, () -> writes.count() > 300));
            KafkaBroker leader = cluster.leaderOf(TOPIC, 0);
            leader.kill();
            int atKill = writes.count();
            assertTrue(Poll.until(WAIT, LOOK, () -> writes.count() > atKill + 600));
            writes.stop();
            writes.assertEachOnTheTopicInOrder(cluster.read(TOPIC, writes.count(), WAIT));
            assertTrue(cluster.leaderOf(TOPIC, 0).nodeId() != leader.nodeId(), "partition 0 kept its killed leader");
        }
    }
}
