package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar sending to a broker over SASL_SSL with SCRAM-SHA-512, configured by {@code --kafka-config-file} as
 * docs/kafka.md shows it, PEM trust included: the events arrive, and neither the server's output nor its metrics
 * quote the password or the JAAS line; with a wrong password, one ERROR line names the authentication and the server
 * stays ready. Heavy: a broker of its own.
 */
@Tag("heavy")
class KafkaSaslSslIT {

    private static final String TOKEN = "kafka-tls-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final String PASSWORD = "the-right-password-6021";
    private static final String WRONG = "a-wrong-password-3388";

    @TempDir
    static Path brokerDir;
    @TempDir
    Path dir;

    private static KafkaBroker broker;
    private RunningJar jar;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.startWithScramOverTls(brokerDir.resolve("broker"), "plantstore", PASSWORD);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @AfterEach
    void stopJar() throws Exception {
        if (jar != null) {
            jar.close();
        }
    }

    private RunningJar start(String topic, String password) throws Exception {
        Path config = dir.resolve("kafka.properties");
        broker.writeScramClientProperties(config, password);
        jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "sqlite:plants.db",
                "--kafka-bootstrap-servers", broker.scramBootstrapServers(), "--kafka-topic", topic,
                "--kafka-config-file", config.toString(), "--management-port", "0");
        return jar;
    }

    private static int create(RunningJar jar, long id, String name) throws Exception {
        return HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, name, null))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static void assertQuotesNoCredential(String said) {
        assertFalse(said.contains(PASSWORD) || said.contains(WRONG) || said.contains("ScramLoginModule"), said);
    }

    @Test
    void theEventsArriveAndNeitherOutputNorMetricsQuoteTheCredential() throws Exception {
        broker.createTopic("tls-jar-right", 1);
        RunningJar jar = start("tls-jar-right", PASSWORD);
        assertEquals(200, create(jar, 1, "Monstera"));
        assertEquals(200, create(jar, 2, "Fern"));
        assertEquals(List.of("1", "2"), broker.readOverScram("tls-jar-right", 2, WAIT).stream()
                .map(KafkaBroker.Event::key).toList());
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.metrics().contains("outcome=\"delivered\"")), jar::metrics);
        assertQuotesNoCredential(jar.metrics());
        assertQuotesNoCredential(jar.outputSoFar());
    }

    @Test
    void aWrongPasswordIsOneErrorLineNamingTheAuthenticationWhileTheServerStaysReady() throws Exception {
        broker.createTopic("tls-jar-wrong", 1);
        RunningJar jar = start("tls-jar-wrong", WRONG);
        assertEquals(200, create(jar, 1, "Monstera"));
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains("refused the client's authentication")),
                jar::outputSoFar);
        assertEquals(200, create(jar, 2, "Fern"));
        String sinkTag = "receiver=\"kafka://" + broker.scramBootstrapServers() + "/tls-jar-wrong\"";
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.metrics().contains("plantstore_webhook_pending{" + sinkTag
                + "} 2.0")), jar::metrics);
        String output = jar.outputSoFar();
        assertEquals(1, output.lines().filter(line -> line.contains(" ERROR ")).count(), output);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
        assertQuotesNoCredential(output);
        assertQuotesNoCredential(jar.metrics());
        assertEquals(List.of(), broker.read("tls-jar-wrong", 1, Duration.ofSeconds(2)));
    }
}
