package dev.plantstore.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A broker's listener of SASL with SCRAM: its port and protocol (SASL_PLAINTEXT, or SASL_SSL with a PEM key in
 * {@code tls}), its SCRAM mechanism, and the one user it knows.
 */
record KafkaScramListener(int port, String protocol, String mechanism, String user, String password,
                          Optional<KafkaTlsFiles> tls) {

    /** SCRAM-SHA-256 over SASL_PLAINTEXT, on a free port. */
    static KafkaScramListener plaintext(String user, String password) throws IOException {
        return new KafkaScramListener(Sockets.freePort(), "SASL_PLAINTEXT", "SCRAM-SHA-256", user, password,
                Optional.empty());
    }

    /** SCRAM-SHA-512 over SASL_SSL with the key and certificate of {@code tls}, on a free port. */
    static KafkaScramListener overTls(String user, String password, KafkaTlsFiles tls) throws IOException {
        return new KafkaScramListener(Sockets.freePort(), "SASL_SSL", "SCRAM-SHA-512", user, password,
                Optional.of(tls));
    }

    /**
     * What a client of this listener sets to sign in as {@link #user} with {@code triedPassword}, the user's or a
     * wrong one: Kafka's own property names.
     */
    Map<String, String> clientProperties(String triedPassword) {
        var properties = new LinkedHashMap<String, String>();
        properties.put("security.protocol", protocol);
        properties.put("sasl.mechanism", mechanism);
        properties.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"" + user + "\" password=\"" + triedPassword + "\";");
        tls.ifPresent(files -> {
            properties.put("ssl.truststore.type", "PEM");
            properties.put("ssl.truststore.location", files.certificate().toString());
        });
        return properties;
    }

    /** {@link #clientProperties} as the file a server takes ({@code --kafka-config-file}), owner-readable only. */
    Path writeClientProperties(Path file, String triedPassword) throws IOException {
        Files.writeString(file, clientProperties(triedPassword).entrySet().stream()
                .map(property -> property.getKey() + "=" + property.getValue())
                .collect(Collectors.joining("\n", "", "\n")));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
