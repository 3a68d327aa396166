package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.PostgresAsPostgres;
import dev.plantstore.testkit.Sockets;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sslmode} in the store's URL reaches the driver: a PostgreSQL of the test's own, with a self-signed certificate
 * the test makes, is reached over TLS with the certificate verified, and refused when another certificate is trusted.
 */
@Tag("heavy")
class PostgresTlsIT {

    private static final String TOKEN = "postgres-tls-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void theServerVerifiesTheDatabasesCertificateWhenTheUrlSaysSo() throws Exception {
        try (var servers = PostgresAsPostgres.prepare(Map.of(Path.of("/usr/bin/openssl"), "openssl"))) {
            Path trusted = selfSigned(servers, "server");
            Path other = selfSigned(servers, "other");
            int port = Sockets.freePort();
            String plain = servers.startServer("tls", port, Map.of("ssl", "on",
                    "ssl_cert_file", trusted.toString(), "ssl_key_file", key(trusted).toString()));
            String verified = plain + "&sslmode=verify-full&sslrootcert=" + trusted
                    + "&ApplicationName=plantstore-tls";

            try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", verified)) {
                assertEquals(200, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                        PlantRequests.plantJson(1, "Fern")).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode());
                try (Connection connection = DriverManager.getConnection(plain);
                     Statement statement = connection.createStatement();
                     ResultSet row = statement.executeQuery("SELECT count(*), bool_and(s.ssl) FROM pg_stat_ssl s "
                             + "JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'plantstore-tls'")) {
                    row.next();
                    assertTrue(row.getInt(1) > 0 && row.getBoolean(2), "the server's connections use TLS");
                }
            }

            RunningJar.Completed refused = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_TOKENS", TOKEN),
                    "--port", "0", "--store", plain + "&sslmode=verify-full&sslrootcert=" + other);
            assertEquals(1, refused.exitCode(), refused.stdout());
            assertTrue(refused.stderr().startsWith("plantstore: cannot open store jdbc:postgresql://127.0.0.1:" + port
                    + "/postgres: ") && refused.stderr().contains("trust anchors")
                    && refused.stderr().lines().count() == 1, refused.stderr());
        }
    }

    /** A self-signed certificate for 127.0.0.1, made by postgres so that the server may read its key. */
    private static Path selfSigned(PostgresAsPostgres servers, String name) throws Exception {
        Path certificate = servers.dir().resolve(name + ".crt");
        servers.runAsPostgres(Duration.ofSeconds(60), "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key(certificate).toString(), "-out", certificate.toString());
        return certificate;
    }

    private static Path key(Path certificate) {
        return certificate.resolveSibling(certificate.getFileName().toString().replace(".crt", ".key"));
    }
}
