package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink over SASL_SSL with SCRAM-SHA-512 and PEM trust, configured as docs/kafka.md shows, by a properties file as
 * {@code --kafka-config-file} takes it, against a broker whose TLS listener has a PEM key: the events arrive, and no
 * log line, metric or error quotes the password or the JAAS line; a wrong password is one ERROR line naming the
 * authentication, the events kept and the worker still at work. Heavy: a broker of its own.
 */
@Tag("heavy")
class ScramOverTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String PASSWORD = "the-right-password-5169";
    private static final String WRONG = "a-wrong-password-2704";

    @TempDir
    static Path dir;

    private static KafkaBroker broker;

    /** What the sink told its listener, as text: where a metric's value or name could carry a credential. */
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final WebhookListener listener = new WebhookListener() {
        @Override
        public void attempted(URI receiver, Outcome outcome) {
            told.add("attempted " + receiver + " " + outcome);
        }

        @Override
        public void delivered(URI receiver, Duration sinceWrite) {
            told.add("delivered " + receiver);
        }

        @Override
        public void backlog(URI receiver, long pending, long oldestAgeMillis) {
            told.add("backlog " + receiver + " " + pending);
        }
    };

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.startWithScramOverTls(dir.resolve("broker"), "plantstore", PASSWORD);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** The config file of docs/kafka.md's SASL_SSL example, with {@code password}, read as the server reads it. */
    private static Map<String, String> configFile(String name, String password) throws IOException {
        Path file = dir.resolve(name + ".properties");
        broker.writeScramClientProperties(file, password);
        var properties = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            properties.load(in);
        }
        return properties.stringPropertyNames().stream()
                .collect(Collectors.toMap(key -> key, properties::getProperty));
    }

    private void assertQuotesNoCredential(CapturedLog log, KafkaSink sink) {
        List<String> said = new java.util.ArrayList<>(told);
        log.records().forEach(record -> said.add(record.getMessage()
                + (record.getThrown() == null ? "" : " " + record.getThrown())));
        said.add(sink.toString());
        said.add(sink.target().toString());
        for (String line : said) {
            assertFalse(line.contains(PASSWORD) || line.contains(WRONG) || line.contains("ScramLoginModule"), line);
        }
    }

    @Test
    void theEventsArriveOverSaslSslAndNothingQuotesTheCredential() throws Exception {
        broker.createTopic("tls-right", 1);
        Map<String, String> config = configFile("right", PASSWORD);
        KafkaSink sink = KafkaSink.to(broker.scramBootstrapServers(), "tls-right").withClientProperties(config)
                .withListener(listener);
        try (CapturedLog log = CapturedLog.of("");
             PlantStore store = PlantStores.inMemory(List.of(sink))) {
            store.create(new NewPlant(1, "Monstera"));
            store.create(new NewPlant(2, "Fern"));
            List<KafkaBroker.Event> records = broker.readOverScram("tls-right", 2, WAIT);
            assertEquals(List.of("1", "2"), records.stream().map(KafkaBroker.Event::key).toList());
            assertTrue(Poll.until(WAIT, LOOK, () -> told.stream().anyMatch(line -> line.startsWith("delivered"))),
                    told.toString());
            assertQuotesNoCredential(log, sink);
        }
    }

    @Test
    void aWrongPasswordIsOneErrorLineNamingTheAuthenticationAndTheEventsAreKept() throws Exception {
        broker.createTopic("tls-wrong", 1);
        KafkaSink sink = KafkaSink.to(broker.scramBootstrapServers(), "tls-wrong")
                .withClientProperties(configFile("wrong", WRONG)).withListener(listener);
        try (CapturedLog log = CapturedLog.of("");
             PlantStore store = PlantStores.inMemory(List.of(sink))) {
            store.create(new NewPlant(1, "Monstera"));
            assertTrue(Poll.until(WAIT, LOOK, () -> !log.messagesWith("refused the client's authentication")
                    .isEmpty()), () -> log.records().stream().map(LogRecord::getMessage).toList().toString());
            // Written while the sink fails: kept beside the first, and the worker, still at work, counts both.
            store.create(new NewPlant(2, "Fern"));
            assertTrue(Poll.until(WAIT, LOOK, () -> told.contains("backlog " + sink.target() + " 2")),
                    told.toString());
            List<LogRecord> errors = log.records().stream().filter(record -> record.getLevel() == Level.SEVERE)
                    .toList();
            assertEquals(1, errors.size(), errors.stream().map(LogRecord::getMessage).toList().toString());
            assertTrue(errors.get(0).getMessage().contains("check security.protocol and the sasl. and ssl. "
                    + "properties"), errors.get(0).getMessage());
            assertNull(errors.get(0).getThrown());
            assertTrue(store.isAvailable());
            assertQuotesNoCredential(log, sink);
            assertEquals(List.of(), broker.read("tls-wrong", 1, Duration.ofSeconds(2)));
        }
    }
}
