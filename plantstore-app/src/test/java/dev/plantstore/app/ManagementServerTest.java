package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.ErrorResponses;
import dev.plantstore.testkit.Sockets;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The management port answers only requests addressed to it by address or by its own name, so that a page whose
 * name was rebound to this machine cannot read the metrics; what it refuses is in the Error shape.
 */
class ManagementServerTest {

    private final ManagementServer server = ManagementServer.start("127.0.0.1", 0,
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Optional.empty());

    @AfterEach
    void stop() {
        server.close();
    }

    private String get(String target, String host) throws IOException {
        try (var socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            return Sockets.readUntilClosed(socket, Duration.ofSeconds(10));
        }
    }

    /** The Error answer, with the headers every answer of the server carries. */
    private static void assertError(String response, int status) {
        ErrorResponses.assertError(response, status);
        assertTrue(response.contains("\r\nX-Content-Type-Options: nosniff\r\n"), response);
        assertTrue(response.contains("\r\nX-Request-Id: "), response);
    }

    @Test
    void readinessIsDownUntilToldWhatItReportsOn() throws IOException {
        String before = get("/health/ready", "127.0.0.1");
        assertTrue(before.startsWith("HTTP/1.1 503 "), before);
        server.readyWhen(() -> true);
        String after = get("/health/ready", "127.0.0.1");
        assertTrue(after.startsWith("HTTP/1.1 200 "), after);
    }

    @ParameterizedTest(name = "Host: {0}")
    @ValueSource(strings = {"evil.example", "evil.example:%d", "127.0.0.1.nip.io:%d", "localhost.evil.example"})
    void aRequestForAnotherHostIs421(String host) throws IOException {
        for (String path : new String[] {"/metrics", "/health/ready", "/health/live", "/nowhere"}) {
            assertError(get(path, host.formatted(server.port())), 421);
        }
    }

    @ParameterizedTest(name = "Host: {0}")
    @ValueSource(strings = {"127.0.0.1:%d", "127.0.0.1", "localhost:%d", "LOCALHOST", "[::1]:%d", "10.1.2.3:%d"})
    void aRequestForAnAddressOrLocalhostIsServed(String host) throws IOException {
        String response = get("/metrics", host.formatted(server.port()));
        assertTrue(response.startsWith("HTTP/1.1 200 "), response);
    }

    @Test
    void anHttp10ProbeWithoutHostIsServed() throws IOException {
        try (var socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write("GET /health/live HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String response = Sockets.readUntilClosed(socket, Duration.ofSeconds(10));
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        }
    }

    @Test
    void whatItRefusesIsInTheErrorShapeNeverJettysPage() throws IOException {
        String host = "127.0.0.1:" + server.port();
        assertError(get("/nowhere", host), 404);
        assertError(get("/%FF", host), 400);
        assertError(get("/metrics/..%2F", host), 400);
    }
}
