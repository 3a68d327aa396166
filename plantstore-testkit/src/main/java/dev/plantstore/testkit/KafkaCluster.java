package dev.plantstore.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A cluster of {@link KafkaBroker} nodes, each broker and KRaft controller both, the controllers a static quorum
 * ({@code controller.quorum.voters}) of them all: with three, one node killed leaves a majority, and a partition
 * whose leader it was gets another from its in-sync replicas.
 */
public final class KafkaCluster implements AutoCloseable {

    private final List<KafkaBroker> nodes;

    private KafkaCluster(List<KafkaBroker> nodes) {
        this.nodes = nodes;
    }

    /** {@code size} nodes in {@code dir}, formatted, started together and serving. */
    public static KafkaCluster start(Path dir, int size) throws IOException, InterruptedException {
        List<Integer> controllerPorts = new ArrayList<>();
        for (int node = 1; node <= size; node++) {
            controllerPorts.add(Sockets.freePort());
        }
        String voters = IntStream.rangeClosed(1, size)
                .mapToObj(node -> node + "@127.0.0.1:" + controllerPorts.get(node - 1))
                .collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        List<KafkaBroker> nodes = new ArrayList<>();
        var cluster = new KafkaCluster(nodes);
        try {
            for (int node = 1; node <= size; node++) {
                nodes.add(KafkaBroker.clusterNode(dir.resolve("node-" + node), clusterId, node, Sockets.freePort(),
                        controllerPorts.get(node - 1), voters));
            }
            // Together: a node serves only once a majority of the controllers elected a leader.
            for (KafkaBroker node : nodes) {
                node.launch();
            }
            for (KafkaBroker node : nodes) {
                node.awaitServing();
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** Every node's listener, {@code 127.0.0.1:PORT,...}, as a client's {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return nodes.stream().map(KafkaBroker::bootstrapServers).collect(Collectors.joining(","));
    }

    /** The node of {@code node.id} {@code id}. */
    public KafkaBroker node(int id) {
        return nodes.get(id - 1);
    }

    /**
     * Creates {@code topic} with {@code partitions} partitions of {@code replicationFactor} replicas, configured so
     * ({@code min.insync.replicas}, say), and waits until the brokers serve it.
     */
    public void createTopic(String topic, int partitions, int replicationFactor, Map<String, String> configs)
            throws InterruptedException {
        KafkaClients.createTopic(bootstrapServers(),
                new NewTopic(topic, partitions, (short) replicationFactor).configs(configs));
    }

    /** The node that leads {@code partition} of {@code topic} now. */
    public KafkaBroker leaderOf(String topic, int partition) throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            int leader = admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic)
                    .partitions().get(partition).leader().id();
            return node(leader);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not describe topic " + topic, e);
        }
    }

    /** As {@link KafkaBroker#read}, through every node that still runs. */
    public List<KafkaBroker.Event> read(String topic, int count, Duration limit) {
        return KafkaClients.read(bootstrapServers(), Map.of(), topic, count, limit).stream()
                .map(KafkaBroker.Event::of).toList();
    }

    /** Stops every node and removes its data. */
    @Override
    public void close() {
        nodes.forEach(KafkaBroker::close);
    }
}
