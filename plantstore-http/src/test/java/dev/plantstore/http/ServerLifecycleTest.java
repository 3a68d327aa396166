package dev.plantstore.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ServerLifecycleTest {

    /**
     * The most {@link PlantStoreServer#close()} may take when no request is in flight: a tenth of the stop's time-out,
     * which a close that waited for an idle connection would take whole. A close takes milliseconds, tens of them on
     * a machine busy with other builds.
     */
    private static final Duration FAST_CLOSE = PlantStoreServer.STOP_TIMEOUT.dividedBy(10);

    private static int healthStatus(HttpClient client, URI server) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(server.resolve("/health")).build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int healthStatus(URI server) throws IOException, InterruptedException {
        return healthStatus(HttpClient.newHttpClient(), server);
    }

    private static Duration timeToClose(PlantStoreServer server) {
        long start = System.nanoTime();
        server.close();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static boolean acceptsConnections(int port) {
        try (var socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return socket.isConnected();
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void portZeroBindsAFreePortAndReportsIt() throws Exception {
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0)) {
            assertTrue(server.port() > 0);
            assertEquals("127.0.0.1", server.host());
            assertEquals(URI.create("http://127.0.0.1:" + server.port() + "/"), server.uri());
            assertEquals(200, healthStatus(server.uri()));
        }
    }

    @Test
    void uriOfAServerOnEveryInterfaceIsTheLoopbackAddress() throws Exception {
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "0.0.0.0", 0)) {
            assertEquals(URI.create("http://127.0.0.1:" + server.port() + "/"), server.uri());
            assertEquals(200, healthStatus(server.uri()));
        }
    }

    @Test
    void closeStopsListening() throws Exception {
        var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0);
        URI uri = server.uri();
        server.close();
        assertThrows(ConnectException.class, () -> healthStatus(uri));
    }

    @Test
    void closeIsFastWhileAKeepAliveConnectionIsIdle() throws Exception {
        // The first stop in a JVM loads the classes of the stop path (150 ms on a busy machine); this is not what the
        // bound is about, so one server that saw the same traffic is started and stopped first.
        try (var warmUp = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0)) {
            assertEquals(200, healthStatus(HttpClient.newHttpClient(), warmUp.uri()));
        }
        var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0);
        // java.net.http.HttpClient keeps the connection open after the answer, as most clients do.
        HttpClient client = HttpClient.newHttpClient();
        assertEquals(200, healthStatus(client, server.uri()));

        Duration closing = timeToClose(server);
        // A client that is collected closes its connections, which would leave the server nothing idle to close.
        Reference.reachabilityFence(client);

        assertTrue(closing.compareTo(FAST_CLOSE) < 0, "close() took " + closing.toMillis() + " ms");
    }

    @ParameterizedTest
    @EnumSource(HttpClient.Version.class)
    void closeIsFastWhileAKeepAliveConnectionIsIdleOverTls(HttpClient.Version version) throws Exception {
        try (var warmUp = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "localhost", 0,
                ClientLimits.defaults(), TestTransport.serverKeys())) {
            assertEquals(200, healthStatus(TestTransport.tlsClient(version), warmUp.uri()));
        }
        var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "localhost", 0,
                ClientLimits.defaults(), TestTransport.serverKeys());
        HttpClient client = TestTransport.tlsClient(version);
        assertEquals(200, healthStatus(client, server.uri()));

        Duration closing = timeToClose(server);
        // A client that is collected closes its connections, which would leave the server nothing idle to close.
        Reference.reachabilityFence(client);

        assertTrue(closing.compareTo(FAST_CLOSE) < 0, "close() took " + closing.toMillis() + " ms");
    }

    @Test
    void closeIsFastWhileAnHttp2ConnectionThatSentFramesAfterItsAnswerIsIdleAndIgnoresGoAway() throws Exception {
        try (var warmUp = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "localhost", 0,
                ClientLimits.defaults(), TestTransport.serverKeys())) {
            assertEquals(200, healthStatus(TestTransport.http2Client(), warmUp.uri()));
        }
        var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "localhost", 0,
                ClientLimits.defaults(), TestTransport.serverKeys());
        try (var connection = BareHttp2Connection.open(server.uri())) {
            connection.getAndReadAnswer("/health");
            // A client's WINDOW_UPDATE or PING after the answer, as the JDK's client sends when it reads late.
            connection.ping();

            Duration closing = timeToClose(server);

            assertTrue(closing.compareTo(FAST_CLOSE) < 0, "close() took " + closing.toMillis() + " ms");
        }
    }

    @Test
    void closeClosesIdleConnectionsAtOnceAndLetsARequestInFlightFinish() throws Exception {
        var store = new HeldStore();
        var server = PlantStoreServer.start(TestApi.api(store), "127.0.0.1", 0);
        var idle = new Socket(InetAddress.getLoopbackAddress(), server.port());
        readHealthResponse(idle);
        var create = PlantRequests.create(server.uri().resolve("/plants"), TestApi.TOKEN,
                PlantRequests.plantJson(7, "Fern")).build();
        CompletableFuture<HttpResponse<String>> inFlight =
                HttpClient.newHttpClient().sendAsync(create, HttpResponse.BodyHandlers.ofString());
        assertTrue(store.createEntered.await(10, TimeUnit.SECONDS), "the create never reached the store");

        int port = server.port();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
        awaitRefusingConnections(port);
        // Jetty alone would close the idle connection after its one-second shutdown idle time-out.
        idle.setSoTimeout(500);
        assertEquals(-1, idle.getInputStream().read(), "the idle connection was not closed");
        idle.close();
        assertFalse(closing.isDone(), "close() returned while a request was in flight");
        store.release.countDown();

        HttpResponse<String> response = inFlight.get(10, TimeUnit.SECONDS);
        assertEquals(200, response.statusCode());
        assertEquals("{\"name\":\"Fern\"}", response.body());
        closing.get(10, TimeUnit.SECONDS);
        assertEquals(Optional.of(new Plant("Fern", null)), store.find(7));
    }

    /** Sends {@code GET /health} on a keep-alive connection and reads the whole answer, leaving the connection idle. */
    private static void readHealthResponse(Socket socket) throws IOException {
        socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(US_ASCII));
        var in = new DataInputStream(socket.getInputStream());
        String head = readHead(in);
        assertTrue(head.startsWith("HTTP/1.1 200 "), head);
        var contentLength = Pattern.compile("(?im)^content-length: *(\\d+)").matcher(head);
        assertTrue(contentLength.find(), head);
        in.readFully(new byte[Integer.parseInt(contentLength.group(1))]);
    }

    @Test
    void closeLetsARequestWhoseBodyIsStillArrivingFinish() throws Exception {
        var store = PlantStores.inMemory();
        var server = PlantStoreServer.start(TestApi.api(store), "127.0.0.1", 0);
        String body = "{\"id\":42,\"name\":\"Slow Fern\"}";
        try (var socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            var out = socket.getOutputStream();
            var in = new DataInputStream(socket.getInputStream());
            // The server sends 100 Continue when the handler starts reading the body: the request is then in flight.
            out.write(("POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + TestApi.BEARER
                    + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "
                    + body.length() + "\r\n\r\n").getBytes(US_ASCII));
            out.flush();
            assertTrue(readHead(in).startsWith("HTTP/1.1 100 "));
            out.write(body.substring(0, 10).getBytes(US_ASCII));
            out.flush();

            int port = server.port();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
            awaitRefusingConnections(port);
            out.write(body.substring(10).getBytes(US_ASCII));
            out.flush();

            String response = new String(in.readAllBytes(), US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
            assertTrue(response.endsWith("{\"name\":\"Slow Fern\"}"), response);
            closing.get(10, TimeUnit.SECONDS);
        }
        assertEquals(Optional.of(new Plant("Slow Fern", null)), store.find(42));
    }

    private static String readHead(DataInputStream in) throws IOException {
        var head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.readUnsignedByte());
        }
        return head.toString();
    }

    private static void awaitRefusingConnections(int port) throws InterruptedException {
        assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(5), () -> !acceptsConnections(port)),
                "the server still accepts connections 10 s after close() began");
    }

    @Test
    void closeLeavesTheStoreOpen() {
        var store = new HeldStore();
        store.release.countDown();
        PlantStoreServer.start(TestApi.api(store), "127.0.0.1", 0).close();
        assertFalse(store.closed, "the server closed a store it does not own");
    }

    @Test
    void anAddressInUseIsAnUncheckedIOExceptionCausedByTheBindFailure() throws Exception {
        try (var taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            var failure = assertThrows(UncheckedIOException.class,
                    () -> PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1",
                            taken.getLocalPort()));
            assertInstanceOf(BindException.class, failure.getCause().getCause());
            assertTrue(failure.getMessage().contains("127.0.0.1:" + taken.getLocalPort()), failure.getMessage());
        }
    }

    @Test
    void portOutOfRangeIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 65_536));
    }

    /** In memory; a create waits for {@link #release}, and {@link #close()} is recorded. */
    private static final class HeldStore implements PlantStore {
        private final PlantStore plants = PlantStores.inMemory();
        private final CountDownLatch createEntered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile boolean closed;

        @Override
        public CreateResult create(NewPlant plant) {
            createEntered.countDown();
            try {
                if (!release.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the create");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return plants.create(plant);
        }

        @Override
        public boolean delete(long id) {
            return plants.delete(id);
        }

        @Override
        public Optional<Plant> find(long id) {
            return plants.find(id);
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
