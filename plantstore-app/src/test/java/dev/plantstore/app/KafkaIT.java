package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import dev.plantstore.testkit.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plant events from the jar to a real Kafka broker, read back by a consumer: every acknowledged write is a record
 * with its CloudEvents headers, in order per plant, beside a webhook receiver that is down; a missing topic is one
 * line and the events wait; a config file others may read is refused without a word of what it holds.
 */
class KafkaIT {

    private static final String TOKEN = "kafka-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);

    @TempDir
    Path dir;

    private static KafkaBroker broker;
    private static int topics;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.shared();
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private static synchronized String newTopic() {
        return "jar-plants-" + ++topics;
    }

    private RunningJar start(Map<String, String> env, String... args) throws Exception {
        var all = new LinkedHashMap<>(Map.of("PLANTSTORE_TOKENS", TOKEN));
        all.putAll(env);
        RunningJar jar = RunningJar.start(dir, all, args);
        opened.add(jar);
        return jar;
    }

    private static int create(RunningJar jar, String token, long id, String name) throws Exception {
        return HTTP.send(PlantRequests.create(jar.uri("/plants"), token, PlantRequests.plantJson(id, name, null))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int delete(RunningJar jar, long id) throws Exception {
        return HTTP.send(PlantRequests.delete(URI.create(jar.uri("/plants/") + Long.toString(id)), TOKEN)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int ready(RunningJar jar) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(jar.managementUri("/health/ready")).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void eachAcknowledgedWriteIsARecordInOrderPerPlantThoughAWebhookReceiverIsDown() throws Exception {
        String topic = newTopic();
        broker.createTopic(topic, 3);
        var receiver = new WebhookReceiver();
        opened.add(receiver);
        receiver.answer(503);
        RunningJar jar = start(Map.of("PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                        "PLANTSTORE_WEBHOOK_URL", receiver.url().toString(),
                        "PLANTSTORE_WEBHOOK_SECRET", WebhooksIT.SECRET),
                "--store", "sqlite:plants.db", "--kafka-topic", topic, "--management-port", "0");
        assertTrue(jar.outputSoFar().contains("events to Kafka topic " + topic + " at " + broker.bootstrapServers()),
                jar.outputSoFar());
        for (int id = 1; id <= 20; id++) {
            assertEquals(200, create(jar, TOKEN, id, "Plant " + id));
        }
        assertNotEquals(200, create(jar, "a-wrong-token", 21, "Refused"));
        for (int id = 1; id <= 5; id++) {
            assertEquals(204, delete(jar, id));
        }

        List<KafkaBroker.Event> records = broker.read(topic, 25, WAIT);
        assertEquals(25, records.size(), records.toString());
        Map<String, List<String>> perPlant = new LinkedHashMap<>();
        for (var record : records) {
            assertEquals("1.0", record.header("ce_specversion"));
            assertEquals("application/json", record.header("content-type"));
            assertTrue(record.value().startsWith("{\"id\":" + record.key()), record.value());
            perPlant.computeIfAbsent(record.key(), key -> new ArrayList<>()).add(record.header("ce_type"));
        }
        assertFalse(perPlant.containsKey("21"), "a refused write has no event");
        assertEquals(List.of("plant.created", "plant.deleted"), perPlant.get("1"));
        assertEquals(List.of("plant.created"), perPlant.get("20"));
        assertEquals(0, receiver.acceptedCount(), "the receiver was down all along");

        String sinkTag = "receiver=\"kafka://" + broker.bootstrapServers() + "/" + topic + "\"";
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.metrics().contains(
                "plantstore_webhook_deliveries_total{outcome=\"delivered\"," + sinkTag + "} 25.0")), jar::metrics);
        assertTrue(jar.metrics().contains("plantstore_webhook_pending{" + sinkTag + "}"), jar.metrics());
    }

    @Test
    void aMissingTopicIsOneErrorLineWhileTheServerStaysReadyAndItsEventsFollowOnceItExists() throws Exception {
        String topic = newTopic();
        RunningJar jar = start(Map.of("PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                "PLANTSTORE_KAFKA_TOPIC", topic), "--store", "sqlite:plants.db", "--management-port", "0");
        assertEquals(200, create(jar, TOKEN, 1, "Monstera"));
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains("does not exist")), jar::outputSoFar);
        assertEquals(200, create(jar, TOKEN, 2, "Fern"));
        assertEquals(200, ready(jar));
        broker.createTopic(topic, 1);
        assertEquals(List.of("1", "2"), broker.read(topic, 2, WAIT).stream().map(KafkaBroker.Event::key).sorted()
                .toList());
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains("recovered")), jar::outputSoFar);
        String output = jar.outputSoFar();
        assertEquals(1, output.lines().filter(line -> line.contains("does not exist")).count(), output);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
    }

    @Test
    void aConfigFileOthersMayReadIsRefusedNamingItAndQuotingNothingOfIt() throws Exception {
        Path config = dir.resolve("kafka.properties");
        Files.writeString(config, "security.protocol=SASL_SSL\nsasl.jaas.config=hunter2-in-the-file\n");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
        var completed = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_TOKENS", TOKEN),
                "--kafka-bootstrap-servers", "127.0.0.1:9", "--kafka-config-file", config.toString());
        assertNotEquals(0, completed.exitCode());
        String said = completed.stdout() + completed.stderr();
        assertTrue(said.contains("Kafka config file " + config), said);
        assertFalse(said.contains("hunter2"), said);
    }

    @Tag("heavy")
    @Test
    void twoInstancesOnPostgresOneKilledAndRestartedLoseNoAcknowledgedWriteAndKeepEachPlantsOrder() throws Exception {
        String topic = newTopic();
        broker.createTopic(topic, 3);
        try (TestPostgres postgres = TestPostgres.freshSchema()) {
            Map<String, String> env = Map.of("PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                    "PLANTSTORE_KAFKA_TOPIC", topic);
            String[] store = {"--store", postgres.schemaUrl()};
            List<String> acknowledged = new ArrayList<>();
            RunningJar a = start(env, store);
            RunningJar b = start(env, store);
            for (int id = 1; id <= 60; id++) {
                assertEquals(200, create(id % 2 == 0 ? a : b, TOKEN, id, "Plant " + id));
                acknowledged.add(id + " plant.created");
                if (id % 5 == 0) {
                    assertEquals(204, delete(id % 2 == 0 ? b : a, id));
                    acknowledged.add(id + " plant.deleted");
                }
            }
            a.process().destroyForcibly().waitFor();
            for (int id = 61; id <= 80; id++) {
                assertEquals(200, create(b, TOKEN, id, "Plant " + id));
                acknowledged.add(id + " plant.created");
            }
            RunningJar restarted = start(env, store);
            for (int id = 81; id <= 90; id++) {
                assertEquals(200, create(restarted, TOKEN, id, "Plant " + id));
                acknowledged.add(id + " plant.created");
                assertEquals(204, delete(b, id));
                acknowledged.add(id + " plant.deleted");
            }

            Map<String, String> firstById = new LinkedHashMap<>();
            Map<String, List<String>> perPlant = new LinkedHashMap<>();
            assertTrue(Poll.until(WAIT, LOOK, () -> {
                firstById.clear();
                perPlant.clear();
                for (var record : broker.read(topic, acknowledged.size(), Duration.ofSeconds(5))) {
                    String event = record.key() + " " + record.header("ce_type");
                    String first = firstById.putIfAbsent(record.header("ce_id"), event + " " + record.value());
                    if (first == null) {
                        perPlant.computeIfAbsent(record.key(), key -> new ArrayList<>()).add(event);
                    } else {
                        assertEquals(first, event + " " + record.value(), "a duplicate differs from its first");
                    }
                }
                return firstById.size() >= acknowledged.size();
            }), () -> firstById.size() + " of " + acknowledged.size() + " events");
            assertEquals(acknowledged.stream().sorted().toList(),
                    perPlant.values().stream().flatMap(List::stream).sorted().toList());
            perPlant.forEach((plant, events) -> assertEquals(plant + " plant.created", events.get(0),
                    "plant " + plant + "'s events came as " + events));
        }
    }
}
