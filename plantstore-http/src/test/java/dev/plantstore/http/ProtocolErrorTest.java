package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.ErrorResponses;
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
        server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String exchange(String request) {
        return RawHttp.exchange(server.port(), request);
    }

    private static void assertJsonError(String response, int status, String reason) {
        ErrorResponses.assertError(response, status);
        assertTrue(response.contains("\r\nContent-Type: application/json\r\n"), response);
        assertTrue(response.endsWith("\r\n\r\n{\"error\":" + status + ",\"message\":\"" + reason + "\"}"), response);
    }

    @Test
    void malformedRequestLineIs400Json() {
        assertJsonError(exchange("GARBAGE\r\n\r\n"), 400, "Bad Request");
    }

    @Test
    void badPercentEncodingInThePathIs400Json() {
        assertJsonError(exchange("""
                DELETE /plants/%zz HTTP/1.1\r
                Host: localhost\r
                \r
                """), 400, "Bad Request");
    }

    @Test
    void headersTooLargeIs431Json() {
        String response = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + "a".repeat(20_000)
                + "\r\n\r\n");
        assertJsonError(response, 431, "Request Header Fields Too Large");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/plants/%FF", "/plants/%C0%AF", "/%FF", "/plants/%zz"})
    void badPercentEncodingGetsTheErrorBodySecurityHeadersAndAnAccessLine(String path) {
        String[] response = new String[1];
        String log = LogCapture.awaiting(List.of(accessLine(" 400")), () -> response[0] = exchange(
                "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
        assertJsonError(response[0], 400, "Bad Request");
        assertTrue(response[0].contains("\r\nX-Content-Type-Options: nosniff\r\n"), response[0]);
        assertTrue(response[0].contains("\r\nCache-Control: no-store\r\n"), response[0]);
        assertAccessLine(log, " 400");
    }

    /** Refused as Jetty's default URI compliance refuses it, and said so in the project's words, not a bare reason. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/plants/%2F", "/plants/1%2F2", "/plants/%2E%2E/1", "/plants/%252F", "/plants//1", "/%2F"})
    void anAmbiguousPathIs400SayingWhy(String path) {
        String response = exchange("DELETE " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        ErrorResponses.assertError(response, 400);
        assertTrue(response.contains("\r\n\r\n{\"error\":400,\"message\":\"ambiguous path: "), response);
    }

    @Test
    void refusedRequestLinesAndHeadersGetAnAccessLine() {
        String log = LogCapture.awaiting(List.of(accessLine(" 505"), accessLine("GET /health 431")), () -> {
            exchange("GET / HTTP/9.9\r\n\r\n");
            exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + "a".repeat(20_000)
                    + "\r\n\r\n");
        });
        assertAccessLine(log, " 505");
        assertAccessLine(log, "GET /health 431");
    }

    /**
     * An access line ending in {@code methodPathStatus}. A request Jetty cannot parse far enough to know its method
     * and path is logged with Jetty's stand-ins for them, so only the status is asked of those.
     */
    private static Pattern accessLine(String methodPathStatus) {
        return Pattern.compile(
                "(?m)dev\\.plantstore\\.access - .*" + Pattern.quote(methodPathStatus) + " \\d+\\.\\dms$");
    }

    private static void assertAccessLine(String log, String methodPathStatus) {
        assertTrue(accessLine(methodPathStatus).matcher(log).find(), methodPathStatus + " in:\n" + log);
    }

    @Test
    void theServerHeaderNamesNoVersion() {
        String response = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertEquals(-1, response.toLowerCase(java.util.Locale.ROOT).indexOf("\r\nserver:"), response);
    }
}
