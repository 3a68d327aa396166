package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.Sockets;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The minimum body rate: a slow but steady body gets through, one trickled below the rate is 408 and its connection
 * closed. Bodies here outlast the grace period, {@value BodyBeforeHandler#GRACE_SECONDS} s, so that the rate applies.
 */
class SlowBodyTest {

    private static final int MIN_RATE = 100;

    private static PlantStoreServer server;

    @BeforeAll
    static void start() {
        server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0,
                ClientLimits.defaults().withMinBodyBytesPerSecond(MIN_RATE));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Sends the headers of a create, then the body in pieces of {@code piece} bytes, one every {@code every}. */
    private static Socket sendSlowly(String body, int piece, Duration every) throws Exception {
        var socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: " + TestApi.BEARER
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        try {
            for (int sent = 0; sent < bytes.length; sent += piece) {
                TimeUnit.NANOSECONDS.sleep(every.toNanos());
                out.write(bytes, sent, Math.min(piece, bytes.length - sent));
                out.flush();
            }
        } catch (IOException e) {
            // The server cut the body off; what it answered is read below.
        }
        return socket;
    }

    @Test
    void aBodyArrivingSteadilyAboveTheMinimumRateIsAccepted() throws Exception {
        // 1,600 bytes over 8 s: twice the minimum rate, like a poor link that keeps going.
        String body = "{\"id\":1,\"name\":\"" + "n".repeat(1_600 - 24) + "\"}";
        try (Socket socket = sendSlowly(body, 100, Duration.ofMillis(500))) {
            String response = Sockets.readUntilClosed(socket, Duration.ofSeconds(20));
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        }
    }

    @Test
    void aBodyTrickledBelowTheMinimumRateIs408AndTheConnectionClosed() throws Exception {
        String body = "{\"id\":2,\"name\":\"Fern\"}" + " ".repeat(40);
        long started = System.nanoTime();
        try (Socket socket = sendSlowly(body, 1, Duration.ofSeconds(1))) {
            String response = Sockets.readUntilClosed(socket, Duration.ofSeconds(20));
            assertTrue(response.startsWith("HTTP/1.1 408 "), response);
            assertTrue(response.contains("\r\nConnection: close\r\n"), response);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "cut off long before the body could finish: " + took);
    }

    @Test
    void aRequestWithoutAValidTokenIsRefusedBeforeItsBodyIsRead() throws Exception {
        for (String authorization : new String[] {"", "Authorization: Bearer wrong-token\r\n"}) {
            try (var socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(20_000);
                // A declared body that never comes: the answer must not wait for it.
                socket.getOutputStream().write(("POST /plants HTTP/1.1\r\nHost: x\r\n" + authorization
                        + "Content-Type: application/json\r\nContent-Length: 20\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                String response = Sockets.readUntilClosed(socket, Duration.ofSeconds(20));
                assertTrue(response.startsWith("HTTP/1.1 401 "), authorization + ": " + response);
            }
        }
    }
}
