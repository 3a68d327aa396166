package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink authenticating with SCRAM-SHA-256, configured by client properties as a config file gives them, against a
 * broker that takes only its one user on that listener: the right password sends, a wrong one is one ERROR line that
 * says what to check and quotes neither. Heavy: a broker of its own.
 */
@Tag("heavy")
class ScramAuthenticationTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String PASSWORD = "the-right-password-4821";
    private static final String WRONG = "a-wrong-password-9377";

    @TempDir
    static Path dir;

    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.startWithScram(dir.resolve("broker"), "plantstore", PASSWORD);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static KafkaSink sink(String topic, String password) {
        return KafkaSink.to(broker.scramBootstrapServers(), topic)
                .withClientProperties(broker.scramClientProperties(password));
    }

    @Test
    void theRightPasswordSends() throws Exception {
        broker.createTopic("scram-right", 1);
        try (PlantStore store = PlantStores.inMemory(List.of(sink("scram-right", PASSWORD)))) {
            store.create(new NewPlant(1, "Monstera"));
            assertEquals(List.of("1"), broker.read("scram-right", 1, WAIT).stream().map(KafkaBroker.Event::key)
                    .toList());
        }
    }

    @Test
    void aWrongPasswordIsOneErrorLineThatQuotesNoPassword() throws Exception {
        broker.createTopic("scram-wrong", 1);
        try (CapturedLog log = CapturedLog.of(BrokerHealth.LOG.getName());
             PlantStore store = PlantStores.inMemory(List.of(sink("scram-wrong", WRONG)))) {
            store.create(new NewPlant(1, "Monstera"));
            assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("refused the client's authentication")
                    .isEmpty()), () -> log.records().stream().map(LogRecord::getMessage).toList().toString());
            assertTrue(log.messagesWith("refused the client's authentication").get(0)
                    .contains("check security.protocol and the sasl. and ssl. properties"));
            for (LogRecord record : log.records()) {
                assertFalse(record.getMessage().contains(WRONG) || record.getMessage().contains(PASSWORD),
                        record.getMessage());
            }
            assertTrue(store.isAvailable());
            assertEquals(List.of(), broker.read("scram-wrong", 1, Duration.ofSeconds(2)));
        }
    }
}
