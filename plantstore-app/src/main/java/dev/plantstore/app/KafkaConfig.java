package dev.plantstore.app;

import dev.plantstore.app.Option.Given;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.kafka.KafkaSink;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/** The Kafka sink the options and environment configure, checked at start-up: brokers, topic and client properties. */
final class KafkaConfig {

    private KafkaConfig() {
    }

    /** {@code --kafka-bootstrap-servers}, checked as the sink checks it. */
    static String parseServers(Given given) throws UsageException {
        String servers = OptionValues.requireNonBlank(given);
        try {
            KafkaSink.to(servers, KafkaSink.DEFAULT_TOPIC);
        } catch (IllegalArgumentException e) {
            throw new UsageException(given.source() + ": " + e.getMessage());
        }
        return servers;
    }

    /** {@code --kafka-topic}, checked as the sink checks it. */
    static String parseTopic(Given given) throws UsageException {
        try {
            KafkaSink.to("localhost:9092", given.value());
        } catch (IllegalArgumentException e) {
            throw new UsageException(given.source() + ": " + e.getMessage());
        }
        return given.value();
    }

    /**
     * Empty when no bootstrap server is given. The client properties come from {@code configFile}, read as the
     * TLS key is ({@link PrivateFile}): only its owner may read it, or its group when root owns it.
     *
     * @throws UsageException for a config file without brokers, one that is not private or not a properties file,
     *                        or a property the sink sets itself; a message never quotes a value of the file
     */
    static Optional<KafkaSink> configured(Optional<String> servers, String topic, Optional<Path> configFile,
                                          WebhookListener listener) throws UsageException {
        if (servers.isEmpty()) {
            if (configFile.isPresent()) {
                throw new UsageException("--kafka-config-file is given but no --kafka-bootstrap-servers "
                        + "(PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS)");
            }
            return Optional.empty();
        }
        Map<String, String> properties = configFile.isPresent() ? read(configFile.get()) : Map.of();
        try {
            return Optional.of(KafkaSink.to(servers.get(), topic).withClientProperties(properties)
                    .withListener(listener));
        } catch (IllegalArgumentException e) {
            throw new UsageException("Kafka config file: " + e.getMessage());
        }
    }

    private static Map<String, String> read(Path file) throws UsageException {
        // Its passwords are a key's secrets: root may let a group read it, as a Kubernetes secret volume does.
        String text = PrivateFile.readText(file, "Kafka config file", PrivateFile.Privacy.KEY);
        var properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            // Properties names no value in what it throws: a bad \\u escape, say.
            throw new UsageException("Kafka config file " + file + " is not a properties file: " + e.getMessage());
        }
        var map = new LinkedHashMap<String, String>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }
}
