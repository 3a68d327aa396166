package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.Poll;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink against brokers that authorize by ACLs (Kafka's StandardAuthorizer), its SCRAM user granted nothing on the
 * topic: one ERROR line that names the cause and the grant to make, no stack trace, the events kept and the worker
 * still at work; once the grant is made, the kept events arrive. Heavy: a broker of its own.
 */
@Tag("heavy")
class AuthorizationTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String USER = "plantstore";
    private static final String PASSWORD = "the-password-7730";
    private static final String TOPIC = "plant-events";

    @TempDir
    static Path dir;

    private static KafkaBroker broker;

    private final List<String> backlogs = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.startWithScramAndAcls(dir.resolve("broker"), USER, PASSWORD);
        broker.createTopic(TOPIC, 1);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aTopicTheClientMayNotWriteIsOneErrorLineItsEventsKeptAndSentOnceGranted() throws Exception {
        KafkaSink sink = KafkaSink.to(broker.scramBootstrapServers(), TOPIC)
                .withClientProperties(broker.scramClientProperties(PASSWORD))
                .withListener(new WebhookListener() {
                    @Override
                    public void backlog(URI receiver, long pending, long oldestAgeMillis) {
                        backlogs.add(Long.toString(pending));
                    }
                });
        try (CapturedLog log = CapturedLog.of(BrokerHealth.LOG.getName());
             PlantStore store = PlantStores.inMemory(List.of(sink))) {
            store.create(new NewPlant(1, "Monstera"));
            assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("do not authorize").isEmpty()),
                    () -> messages(log).toString());
            store.create(new NewPlant(2, "Fern"));
            assertTrue(Poll.until(WAIT, LOOK, () -> backlogs.contains("2")), backlogs.toString());
            List<LogRecord> errors = log.records().stream().filter(record -> record.getLevel() == Level.SEVERE)
                    .toList();
            assertEquals(1, errors.size(), messages(log).toString());
            assertTrue(errors.get(0).getMessage().contains("grant its principal WRITE and DESCRIBE on the topic"),
                    errors.get(0).getMessage());
            assertNull(errors.get(0).getThrown());
            assertTrue(store.isAvailable());

            grantWriteAndDescribe();
            List<KafkaBroker.Event> records = broker.read(TOPIC, 2, WAIT);
            assertEquals(List.of("1", "2"), records.stream().map(KafkaBroker.Event::key).toList());
            assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("recovered").isEmpty()),
                    () -> messages(log).toString());
        }
    }

    /** What docs/kafka.md's line says to do, through the plain listener, whose clients are super users. */
    private static void grantWriteAndDescribe() throws Exception {
        var topic = new ResourcePattern(ResourceType.TOPIC, TOPIC, PatternType.LITERAL);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()))) {
            admin.createAcls(List.of(AclOperation.WRITE, AclOperation.DESCRIBE).stream()
                    .map(operation -> new AclBinding(topic, new AccessControlEntry("User:" + USER, "*", operation,
                            AclPermissionType.ALLOW)))
                    .toList()).all().get(60, TimeUnit.SECONDS);
        }
    }

    private static List<String> messages(CapturedLog log) {
        return log.records().stream().map(record -> record.getLevel() + " " + record.getMessage()).toList();
    }
}
