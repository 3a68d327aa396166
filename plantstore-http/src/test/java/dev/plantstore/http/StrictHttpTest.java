package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.ErrorResponses;
import dev.plantstore.testkit.Sockets;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server reads HTTP/1.1 as RFC 9112 writes it, so that a proxy in front cannot see request boundaries where the
 * server does not: what it does not understand it refuses, in the Error shape.
 */
class StrictHttpTest {

    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(2);

    private final PlantStore store = PlantStores.inMemory();
    private final PlantStoreServer server = PlantStoreServer.start(TestApi.api(store), "127.0.0.1", 0,
            ClientLimits.defaults().withHeaderTimeout(HEADER_TIMEOUT));

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    private String exchange(String request) {
        return RawHttp.exchange(server.port(), request);
    }

    private static void assertHouseStyle(String response, int status) {
        ErrorResponses.assertError(response, status);
        assertTrue(response.contains("\r\nX-Content-Type-Options: nosniff\r\n"), response);
        assertTrue(response.contains("\r\nX-Request-Id: "), response);
    }

    @Test
    void aBareLineFeedInTheHeadersIsRefused() {
        String response = exchange("POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: " + TestApi.BEARER
                + "\r\nContent-Type: application/json\r\nX-Foo: a\nContent-Length: 22\r\nConnection: close\r\n\r\n"
                + "{\"id\":1,\"name\":\"Fern\"}");
        assertHouseStyle(response, 400);
        assertEquals(Optional.empty(), store.find(1));
    }

    @ParameterizedTest(name = "Transfer-Encoding: {0}")
    @ValueSource(strings = {"gzip, chunked", "deflate, chunked", "x-made-up, chunked"})
    void aTransferCodingOtherThanChunkedIs501AndTheConnectionClosed(String codings) {
        String body = "{\"id\":1,\"name\":\"Fern\"}";
        String response = exchange("POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: " + TestApi.BEARER
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: " + codings + "\r\n\r\n"
                + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n"
                + "DELETE /plants/1 HTTP/1.1\r\nHost: x\r\nAuthorization: " + TestApi.BEARER + "\r\n\r\n");
        assertHouseStyle(response, 501);
        assertEquals(1, response.split("HTTP/1.1 ", -1).length - 1, () -> "one answer, then closed: " + response);
        assertEquals(Optional.empty(), store.find(1));
    }

    private String withToken(String requestLine) {
        return exchange(requestLine + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + TestApi.BEARER
                + "\r\nConnection: close\r\n\r\n");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"DELETE http://evil.example/plants/3", "GET http://evil.example/health",
        "POST http://evil.example/plants", "DELETE http://x:1/plants/3"})
    void anAbsoluteFormTargetForAnotherHostIsRefusedInTheHouseStyle(String requestLine) {
        assertHouseStyle(withToken(requestLine), 400);
    }

    @Test
    void anAbsoluteFormTargetForTheRequestsOwnHostIsServedAsItsPath() {
        String response = withToken("DELETE http://x/plants/3");
        assertHouseStyle(response, 404);
        assertTrue(response.endsWith("no plant with id 3\"}"), response);
    }

    @Test
    void theServerWideOptionsTargetIsRefusedInTheHouseStyle() {
        assertHouseStyle(withToken("OPTIONS *"), 404);
        assertHouseStyle(exchange("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 404);
    }

    @Test
    void aRequestHeadThatTrickles1ByteASecondIsCutOffAtTheHeaderTimeout() throws IOException {
        try (var socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.ISO_8859_1));
            long start = System.nanoTime();
            boolean closed = false;
            // One header byte every 200 ms: far inside the idle time-out, never a complete head.
            while (!closed && System.nanoTime() - start < HEADER_TIMEOUT.multipliedBy(5).toNanos()) {
                try {
                    out.write('a');
                    out.flush();
                    socket.setSoTimeout(200);
                    closed = socket.getInputStream().read() != 'x';
                } catch (java.net.SocketTimeoutException stillOpen) {
                    closed = false;
                } catch (IOException reset) {
                    closed = true;
                }
            }
            long elapsed = System.nanoTime() - start;
            assertTrue(closed, "the connection is still open after " + elapsed / 1_000_000 + " ms");
            assertTrue(elapsed >= HEADER_TIMEOUT.toNanos() - 200_000_000L, elapsed / 1_000_000 + " ms");
            Sockets.readUntilClosed(socket, Duration.ofSeconds(5));
        }
    }
}
