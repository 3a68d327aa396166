package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TraceContext;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kafka sink against a real broker, Apache Kafka's own in a process of its own: a consumer reads back every
 * record and checks that each acknowledged write is there once, with its CloudEvents headers, in order per plant.
 */
class KafkaDeliveryTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    @TempDir
    static Path dir;

    private static KafkaBroker broker;
    private static int topics;

    private final List<PlantStore> stores = new ArrayList<>();
    private final CapturedLog log = CapturedLog.of(BrokerHealth.LOG.getName());

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.shared();
    }

    @AfterEach
    void closeStores() {
        stores.forEach(PlantStore::close);
        log.close();
    }

    /** How a test opens a store: in memory, or on SQLite in a file of its own. */
    static Stream<Function<KafkaSink, PlantStore>> stores() {
        return Stream.of(
                sink -> PlantStores.inMemory(List.of(sink)),
                sink -> PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve(sink.topic() + ".db")),
                        JdbcStoreSettings.defaults().withSink(sink)));
    }

    private PlantStore open(Function<KafkaSink, PlantStore> opener, KafkaSink sink) {
        PlantStore store = opener.apply(sink);
        stores.add(store);
        return store;
    }

    private static synchronized String newTopic() {
        return "plants-" + ++topics;
    }

    @ParameterizedTest
    @MethodSource("stores")
    void eachCreateAndDeleteIsARecordWithItsCloudEventHeadersInOrderPerPlant(Function<KafkaSink, PlantStore> opener)
            throws Exception {
        String topic = newTopic();
        broker.createTopic(topic, 3);
        PlantStore store = open(opener, KafkaSink.to(broker.bootstrapServers(), topic));
        long before = System.currentTimeMillis();
        for (int id = 1; id <= 30; id++) {
            store.create(new NewPlant(id, "Plant \"" + id + "\"", id % 2 == 0 ? "even" : null));
        }
        for (int id = 1; id <= 10; id++) {
            store.delete(id, new TraceContext(TRACEPARENT, Optional.of("vendor=1")));
        }
        store.create(new NewPlant(3, "Plant 3 again"));

        List<KafkaBroker.Event> records = broker.read(topic, 41, WAIT);
        assertEquals(41, records.size());
        Map<String, List<String>> perPlant = new LinkedHashMap<>();
        for (var record : records) {
            assertEquals("1.0", record.header("ce_specversion"));
            assertEquals("/plantstore/plants", record.header("ce_source"));
            assertEquals("application/json", record.header("content-type"));
            long time = Instant.parse(record.header("ce_time")).toEpochMilli();
            assertTrue(time >= before - 1_000 && time <= System.currentTimeMillis(), "ce_time " + time);
            assertEquals(time, record.timestamp());
            String type = record.header("ce_type");
            String value = record.value();
            if (type.equals("plant.deleted")) {
                assertEquals("{\"id\":" + record.key() + "}", value);
                assertEquals(TRACEPARENT, record.header("traceparent"));
                assertEquals("vendor=1", record.header("tracestate"));
            } else {
                assertEquals("plant.created", type);
                assertTrue(value.startsWith("{\"id\":" + record.key() + ",\"name\":\"Plant "), value);
                assertNull(record.header("traceparent"));
            }
            perPlant.computeIfAbsent(record.key(), key -> new ArrayList<>()).add(type);
        }
        assertEquals(41, records.stream().map(record -> record.header("ce_id")).distinct().count());
        assertEquals(List.of("plant.created", "plant.deleted", "plant.created"), perPlant.get("3"));
        assertEquals(List.of("plant.created", "plant.deleted"), perPlant.get("1"));
        assertEquals(List.of("plant.created"), perPlant.get("30"));
        assertEquals("{\"id\":2,\"name\":\"Plant \\\"2\\\"\",\"tag\":\"even\"}", records.stream()
                .filter(record -> record.key().equals("2") && record.header("ce_type")
                        .equals("plant.created"))
                .map(KafkaBroker.Event::value).findFirst().orElseThrow());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aMissingTopicIsOneErrorLineAndItsEventsWaitUntilItIsCreated(Function<KafkaSink, PlantStore> opener)
            throws Exception {
        String topic = newTopic();
        PlantStore store = open(opener, KafkaSink.to(broker.bootstrapServers(), topic));
        for (int id = 1; id <= 3; id++) {
            store.create(new NewPlant(id, "Plant " + id));
        }
        assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("does not exist").isEmpty()),
                "no line told of the missing topic: " + messages());
        assertEquals(1, log.records().stream().filter(record -> record.getLevel() == Level.SEVERE).count(),
                messages().toString());
        assertTrue(log.messagesWith("does not exist").get(0).contains("create it (kafka-topics.sh --create --topic "
                + topic + ")"), messages().toString());
        assertTrue(store.isAvailable());
        store.create(new NewPlant(4, "Plant 4"));

        broker.createTopic(topic, 1);
        List<KafkaBroker.Event> records = broker.read(topic, 4, WAIT);
        assertEquals(List.of("1", "2", "3", "4"), records.stream().map(KafkaBroker.Event::key).sorted().distinct()
                .toList());
        assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("recovered").isEmpty()), messages().toString());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aRecordOverTheTopicsLimitIsOneErrorLineItsEventKeptAndTheOthersGoOn(Function<KafkaSink, PlantStore> opener)
            throws Exception {
        String topic = newTopic();
        broker.createTopic(topic, 1, Map.of("max.message.bytes", "400"));
        PlantStore store = open(opener, KafkaSink.to(broker.bootstrapServers(), topic));
        store.create(new NewPlant(1, "x".repeat(500)));
        assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("a record is larger than").isEmpty()),
                messages().toString());
        assertTrue(store.isAvailable());
        store.create(new NewPlant(2, "Fern"));
        List<KafkaBroker.Event> records = broker.read(topic, 1, WAIT);
        assertEquals(List.of("2"), records.stream().map(KafkaBroker.Event::key).toList());
        assertEquals(1, log.messagesWith("a record is larger than").size(), messages().toString());
    }

    private List<String> messages() {
        return log.records().stream().map(record -> record.getLevel() + " " + record.getMessage()).toList();
    }
}
