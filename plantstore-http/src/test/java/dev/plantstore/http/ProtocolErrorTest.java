package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Requests Jetty refuses before any route runs still get the Error body, never an HTML page. */
class ProtocolErrorTest {

    private static PlantStoreServer server;

    @BeforeAll
    static void start() {
        server = PlantStoreServer.start(TestApi.api(PlantStore.inMemory()), "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String exchange(String request) throws IOException {
        try (var socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void assertJsonError(String response, int status, String reason) {
        assertTrue(response.startsWith("HTTP/1.1 " + status + " "), response);
        assertTrue(response.contains("\r\nContent-Type: application/json\r\n"), response);
        assertTrue(response.endsWith("\r\n\r\n{\"error\":" + status + ",\"message\":\"" + reason + "\"}"), response);
    }

    @Test
    void malformedRequestLineIs400Json() throws IOException {
        assertJsonError(exchange("GARBAGE\r\n\r\n"), 400, "Bad Request");
    }

    @Test
    void badPercentEncodingInThePathIs400Json() throws IOException {
        assertJsonError(exchange("""
                DELETE /plants/%zz HTTP/1.1\r
                Host: localhost\r
                \r
                """), 400, "Bad Request");
    }

    @Test
    void headersTooLargeIs431Json() throws IOException {
        String response = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + "a".repeat(20_000)
                + "\r\n\r\n");
        assertJsonError(response, 431, "Request Header Fields Too Large");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/plants/%FF", "/plants/%C0%AF", "/%FF", "/plants/%zz"})
    void badPercentEncodingGetsTheErrorBodySecurityHeadersAndAnAccessLine(String path) {
        String[] response = new String[1];
        String log = LogCapture.awaiting(List.of(accessLine(" 400")), () -> response[0] = exchangeUnchecked(
                "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
        assertJsonError(response[0], 400, "Bad Request");
        assertTrue(response[0].contains("\r\nX-Content-Type-Options: nosniff\r\n"), response[0]);
        assertTrue(response[0].contains("\r\nCache-Control: no-store\r\n"), response[0]);
        assertAccessLine(log, " 400");
    }

    @Test
    void refusedRequestLinesAndHeadersGetAnAccessLine() {
        String log = LogCapture.awaiting(List.of(accessLine(" 505"), accessLine("GET /health 431")), () -> {
            exchangeUnchecked("GET / HTTP/9.9\r\n\r\n");
            exchangeUnchecked("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + "a".repeat(20_000)
                    + "\r\n\r\n");
        });
        assertAccessLine(log, " 505");
        assertAccessLine(log, "GET /health 431");
    }

    private static String exchangeUnchecked(String request) {
        try {
            return exchange(request);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * An access line ending in {@code methodPathStatus}. A request Jetty cannot parse far enough to know its method
     * and path is logged with Jetty's stand-ins for them, so only the status is asked of those.
     */
    private static Pattern accessLine(String methodPathStatus) {
        return Pattern.compile("(?m)dev\\.plantstore\\.access - .*" + Pattern.quote(methodPathStatus) + " \\d+\\.\\dms$");
    }

    private static void assertAccessLine(String log, String methodPathStatus) {
        assertTrue(accessLine(methodPathStatus).matcher(log).find(), methodPathStatus + " in:\n" + log);
    }

    @Test
    void theServerHeaderNamesNoVersion() throws IOException {
        String response = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertEquals(-1, response.toLowerCase(java.util.Locale.ROOT).indexOf("\r\nserver:"), response);
    }
}
