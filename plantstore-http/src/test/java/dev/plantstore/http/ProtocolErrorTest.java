package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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

    @Test
    void theServerHeaderNamesNoVersion() throws IOException {
        String response = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertEquals(-1, response.toLowerCase(java.util.Locale.ROOT).indexOf("\r\nserver:"), response);
    }
}
