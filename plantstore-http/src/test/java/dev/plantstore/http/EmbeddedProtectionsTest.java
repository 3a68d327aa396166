package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.Sockets;
import io.javalin.Javalin;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code mount(config, limits)}: the standalone server's protections on an application the embedder owns, for its
 * own routes too. Each test fails with the plain {@code mount(config)}.
 */
class EmbeddedProtectionsTest {

    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration HEADER_TIMEOUT = Duration.ofMillis(600);
    private static final int MAX_CONNECTIONS = 3;
    private static final int MIN_BODY_RATE = 100;

    private final PlantStore store = PlantStores.inMemory();
    private final Javalin app = Javalin.create(config -> {
        TestApi.api(store).mount(config,
                new ClientLimits(IDLE_TIMEOUT, MAX_CONNECTIONS, MIN_BODY_RATE, HEADER_TIMEOUT));
        config.routes.post("/echo", ctx -> ctx.result(ctx.body()));
        config.startup.showJavalinBanner = false;
    }).start("127.0.0.1", 0);

    @AfterEach
    void stop() {
        app.stop();
        store.close();
    }

    private Socket connect() throws IOException {
        var socket = new Socket("127.0.0.1", app.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    @Test
    void aTransferCodingOtherThanChunkedIs501OnTheHostsRoutesToo() {
        String response = RawHttp.exchange(app.port(), "POST /echo HTTP/1.1\r\nHost: x\r\n"
                + "Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n2\r\nhi\r\n0\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 501 "), response);
    }

    @Test
    void aBareLineFeedInTheHeadersIsRefused() {
        String response = RawHttp.exchange(app.port(), "POST /echo HTTP/1.1\r\nHost: x\r\nX-Foo: a\n"
                + "Content-Length: 2\r\nConnection: close\r\n\r\nhi");
        assertTrue(response.startsWith("HTTP/1.1 400 "), response);
    }

    @Test
    void aCreateBodyTrickledBelowTheMinimumRateIs408() throws Exception {
        String body = "{\"id\":1,\"name\":\"Fern\"}" + " ".repeat(40);
        long started = System.nanoTime();
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(RawHttp.createHead(body.length(), "Authorization: " + TestApi.BEARER, "Connection: close")
                    .getBytes(StandardCharsets.US_ASCII));
            try {
                for (byte b : body.getBytes(StandardCharsets.US_ASCII)) {
                    TimeUnit.SECONDS.sleep(1);
                    out.write(b);
                    out.flush();
                }
            } catch (IOException cutOff) {
                // The server ended the request; what it answered is read below.
            }
            String response = Sockets.readUntilClosed(socket, Duration.ofSeconds(20));
            assertTrue(response.startsWith("HTTP/1.1 408 "), response);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "cut off long before the body could finish: " + took);
    }

    @Test
    void atTheConnectionCapANewConnectionWaitsUntilAnotherCloses() throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                open.add(connect());
            }
            try (Socket waiting = connect()) {
                waiting.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                // Less than the idle time-out, which closes the silent connections holding the cap.
                waiting.setSoTimeout((int) IDLE_TIMEOUT.dividedBy(3).toMillis());
                assertThrows(SocketTimeoutException.class, () -> waiting.getInputStream().read(),
                        "not accepted while the cap is reached");
                open.remove(0).close();
                waiting.setSoTimeout(10_000);
                String response = new String(waiting.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(response.startsWith("HTTP/1.1 200 "), response);
            }
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    @Test
    void aRequestHeadThatTricklesIsCutOffAtTheHeaderTimeout() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.ISO_8859_1));
            long start = System.nanoTime();
            boolean closed = false;
            // A header byte every 100 ms: far inside the idle time-out, never a complete head.
            while (!closed && System.nanoTime() - start < HEADER_TIMEOUT.multipliedBy(8).toNanos()) {
                try {
                    out.write('a');
                    out.flush();
                    socket.setSoTimeout(100);
                    closed = socket.getInputStream().read() == -1;
                } catch (SocketTimeoutException stillOpen) {
                    closed = false;
                } catch (IOException reset) {
                    closed = true;
                }
            }
            assertTrue(closed, "still open after " + (System.nanoTime() - start) / 1_000_000 + " ms");
        }
    }

    @Test
    void aSilentConnectionIsClosedAtTheIdleTimeout() throws Exception {
        try (Socket socket = connect()) {
            long start = System.nanoTime();
            socket.setSoTimeout((int) IDLE_TIMEOUT.multipliedBy(10).toMillis());
            assertEquals(-1, socket.getInputStream().read(), "the server sent something to a silent connection");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(IDLE_TIMEOUT.minusMillis(200)) >= 0, "closed too early: " + took);
        }
    }
}
