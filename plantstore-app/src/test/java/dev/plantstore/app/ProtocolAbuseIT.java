package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and broken clients over raw sockets against the real jar. Each gets a 4xx or a closed connection within a
 * bounded time, and the server keeps answering everyone else meanwhile.
 */
@Tag("alone")
class ProtocolAbuseIT {

    private static final String TOKEN = "abuse-test-token";
    private static final int IDLE_TIMEOUT_SECONDS = 2;
    /** The idle time-out plus slack for a loaded 2-core machine. */
    private static final Duration BOUND = Duration.ofSeconds(IDLE_TIMEOUT_SECONDS + 6);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path dir;

    private static RunningJar jar;

    @BeforeAll
    static void start() throws Exception {
        jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory",
                "--idle-timeout", Integer.toString(IDLE_TIMEOUT_SECONDS), "--max-body-bytes", "1024");
    }

    @AfterAll
    static void stop() {
        jar.close();
    }

    private static Socket connect() throws IOException {
        var socket = new Socket("127.0.0.1", jar.port());
        socket.setSoTimeout((int) BOUND.toMillis());
        return socket;
    }

    private static void write(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    private static void assertOthersAreServed() throws Exception {
        var health = HttpRequest.newBuilder(jar.uri("/health")).timeout(Duration.ofSeconds(5)).build();
        assertEquals(200, HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode());
    }

    private static void assertStatusOrClosed(String response, String status) {
        assertTrue(response.isEmpty() || response.startsWith("HTTP/1.1 " + status), response);
        if (!response.isEmpty()) {
            assertTrue(response.contains("\r\nContent-Type: application/json"), response);
        }
    }

    @Test
    void aMalformedPathWithAValidTokenIsAnErrorBodyWithAnIdThatTheAccessLineCarries() throws Exception {
        for (String path : List.of("/plants/%FF", "/plants/%C0%AF", "/plants/%FF%FE")) {
            String response;
            try (var socket = connect()) {
                write(socket, "DELETE " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                        + "\r\nConnection: close\r\n\r\n");
                response = Sockets.readUntilClosed(socket, BOUND);
            }
            assertTrue(response.startsWith("HTTP/1.1 400 ")
                    && response.endsWith("\"error\":400,\"message\":\"Bad Request\"}"), response);
            assertTrue(response.contains("\r\nX-Content-Type-Options: nosniff\r\n"), response);
            var id = java.util.regex.Pattern.compile("\r\nX-Request-Id: (\\S+)\r\n").matcher(response);
            assertTrue(id.find(), response);
            String accessLine = "[" + id.group(1) + "] access - 127.0.0.1 DELETE " + path + " 400 ";
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20),
                    () -> jar.outputSoFar().contains(accessLine)), accessLine + " in:\n" + jar.outputSoFar());
        }
    }

    @Test
    void oversizedHeaderIs431() throws Exception {
        try (var socket = connect()) {
            write(socket, "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(64 * 1024) + "\r\n\r\n");
            assertStatusOrClosed(Sockets.readUntilClosed(socket, BOUND), "431");
        }
        assertOthersAreServed();
    }

    @Test
    void tenThousandHeadersAre431() throws Exception {
        var request = new StringBuilder("GET /health HTTP/1.1\r\nHost: x\r\n");
        for (int i = 0; i < 10_000; i++) {
            request.append("X-").append(i).append(": v\r\n");
        }
        try (var socket = connect()) {
            write(socket, request + "\r\n");
            assertStatusOrClosed(Sockets.readUntilClosed(socket, BOUND), "431");
        }
        assertOthersAreServed();
    }

    @Test
    void malformedRequestLinesAre400OrClosed() throws Exception {
        for (String line : List.of("GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n",
                "\u0000\u0001\u0002\r\n\r\n", "GET /plants/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /plants HTTP/1.1\r\nContent-Length: -5\r\n\r\n")) {
            try (var socket = connect()) {
                write(socket, line);
                socket.shutdownOutput();
                String response = Sockets.readUntilClosed(socket, BOUND);
                assertTrue(response.isEmpty() || response.matches("(?s)HTTP/1\\.1 (400|505) .*"),
                        line + " -> " + response);
            }
        }
        assertOthersAreServed();
    }

    @Test
    void aClientThatStopsInItsHeadersIsCutOffAtTheIdleTimeout() throws Exception {
        try (var socket = connect()) {
            write(socket, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN + "\r\n");
            assertOthersAreServed();
            assertStatusOrClosed(Sockets.readUntilClosed(socket, BOUND), "408");
        }
    }

    @Test
    void aBodyThatNeverFinishesIs408AtTheIdleTimeout() throws Exception {
        try (var socket = connect()) {
            write(socket, "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":1,");
            assertOthersAreServed();
            String response = Sockets.readUntilClosed(socket, BOUND);
            assertTrue(response.startsWith("HTTP/1.1 408 "), response);
            assertTrue(response.endsWith("{\"error\":408,\"message\":\"request body did not arrive in time\"}"),
                    response);
        }
    }

    @Test
    void farMoreConnectionsThanThreadsDoNotStopTheServer() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 1_000; i++) {
                idle.add(connect());
            }
            assertOthersAreServed();
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (var socket = connect()) {
            String body = "{\"id\":77,\"name\":\"Pipes\"}";
            String create = "POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
            String delete = "DELETE /plants/77 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN + "\r\n\r\n";
            String again = "DELETE /plants/77 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nConnection: close\r\n\r\n";
            write(socket, create + delete + again);
            String responses = Sockets.readUntilClosed(socket, BOUND);
            int ok = responses.indexOf("HTTP/1.1 200 ");
            int deleted = responses.indexOf("HTTP/1.1 204 ");
            int missing = responses.indexOf("HTTP/1.1 404 ");
            assertTrue(ok >= 0 && ok < deleted && deleted < missing, responses);
        }
    }

    @Test
    void aChunkedBodyBeyondTheLimitIs413() throws Exception {
        try (var socket = connect()) {
            var request = new StringBuilder("POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
            for (int i = 0; i < 4; i++) {
                request.append("200\r\n").append(" ".repeat(512)).append("\r\n");
            }
            request.append("0\r\n\r\n");
            write(socket, request.toString());
            String response = Sockets.readUntilClosed(socket, BOUND);
            assertTrue(response.startsWith("HTTP/1.1 413 "), response);
        }
        assertOthersAreServed();
    }
}
