package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.WebhookListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka options and config file, checked at start-up as the other files of secrets are. */
class KafkaConfigTest {

    private static final Optional<String> SERVERS = Optional.of("kafka-1:9092,kafka-2:9092");

    @TempDir
    Path dir;

    private Path privateFile(String text) throws Exception {
        Path file = dir.resolve("kafka.properties");
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void noServerIsNoSink() throws UsageException {
        assertEquals(Optional.empty(), KafkaConfig.configured(Optional.empty(), "plant-events", Optional.empty(),
                WebhookListener.NONE));
    }

    @Test
    void aConfigFileWithoutServersIsRefused() throws Exception {
        Path file = privateFile("security.protocol=SSL\n");
        assertEquals("--kafka-config-file is given but no --kafka-bootstrap-servers "
                + "(PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS)",
                assertThrows(UsageException.class, () -> KafkaConfig.configured(Optional.empty(), "plant-events",
                        Optional.of(file), WebhookListener.NONE)).getMessage());
    }

    @Test
    void thePropertiesOfAPrivateFileGoToTheSinkAndNoneOfTheirValuesShows() throws Exception {
        Path file = privateFile("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                + "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"plants\" password=\"hunter2\";\n");
        var sink = KafkaConfig.configured(SERVERS, "plants", Optional.of(file), WebhookListener.NONE).orElseThrow();
        assertEquals("KafkaSink[kafka://kafka-1:9092,kafka-2:9092/plants, 3 client properties]", sink.toString());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        String refusal = assertThrows(UsageException.class, () -> KafkaConfig.configured(SERVERS, "plants",
                Optional.of(file), WebhookListener.NONE)).getMessage();
        assertTrue(refusal.contains("open to other users"), refusal);
        assertFalse(refusal.contains("hunter2"), refusal);
    }

    /** As a Kubernetes secret volume with {@code defaultMode: 0440} gives it: root's, readable by the pod's group. */
    @Test
    void aConfigFileRootOwnsMayBeReadableByItsGroupAsAMountedSecretIs() throws Exception {
        Path file = privateFile("security.protocol=SASL_SSL\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r-----"));
        assertEquals(0, (int) Files.getAttribute(file, "unix:uid"), "the test runs as root");

        var sink = KafkaConfig.configured(SERVERS, "plants", Optional.of(file), WebhookListener.NONE).orElseThrow();

        assertEquals("KafkaSink[kafka://kafka-1:9092,kafka-2:9092/plants, 1 client properties]", sink.toString());
    }

    @Test
    void aPropertyTheSinkSetsItselfIsRefusedNamingItAlone() throws Exception {
        Path file = privateFile("acks=1-hunter2\n");
        String refusal = assertThrows(UsageException.class, () -> KafkaConfig.configured(SERVERS, "plants",
                Optional.of(file), WebhookListener.NONE)).getMessage();
        assertEquals("Kafka config file: the Kafka client property acks is set by the sink itself and may not be "
                + "given", refusal);
    }

    @Test
    void badServersOrTopicsAreUsageErrorsNamingTheOption() {
        for (List<String> args : List.of(List.of("--kafka-bootstrap-servers", "kafka"),
                List.of("--kafka-bootstrap-servers", "kafka:9092", "--kafka-topic", "no spaces"))) {
            String refusal = assertThrows(UsageException.class, () -> Options.parse(args, Map.of())).getMessage();
            assertTrue(refusal.startsWith(args.get(args.size() - 2)), refusal);
        }
    }
}
