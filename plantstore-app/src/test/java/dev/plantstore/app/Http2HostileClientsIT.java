package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Http2Streams;
import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The jar over HTTP/2 against clients that would hold what they should not: connections that never open their
 * flow-control window while they ask for large answers, and a create whose body contradicts its Content-Length,
 * after which the server must still stop cleanly; and requests RFC 9113 calls malformed, which are never served.
 */
@Tag("alone")
class Http2HostileClientsIT {

    private static final Map<String, String> TOKEN = Map.of("PLANTSTORE_TOKENS", "h2-token");
    private static final String PLANT = "{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}";
    private static final Duration ATTACK = Duration.ofSeconds(30);
    /** What an honest probe may take, the whole time. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(1);
    /** The kubelet's shortest probe period is 1 s; ten a second is well beyond what probes and scrapes send. */
    private static final Duration PROBE_EVERY = Duration.ofMillis(100);

    @TempDir
    Path dir;

    private TestPki pki;
    private TestPki.Pair pair;

    @BeforeEach
    void makePair() throws Exception {
        pki = TestPki.ca(dir, "test-ca");
        pair = pki.issue("server", 1, 30);
    }

    private RunningJar startWith(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--store", "memory", "--tls-cert-file", pair.cert().toString(),
                "--tls-key-file", pair.key().toString()));
        args.addAll(List.of(more));
        return RunningJar.start(dir, TOKEN, args.toArray(String[]::new));
    }

    /**
     * Two connections on each port announce a window of 0 and keep as many streams open as the server lets them,
     * asking for the API's document and the metrics, each answer larger than the window: each stream holds a request
     * thread until the server gives up on it, and the client then asks again. An honest client's probes on both ports
     * are answered within a second all the while, and each stalled stream ends well before the idle time-out's 30 s.
     */
    @Test
    void zeroWindowConnectionsNeverKeepAnHonestClientsProbesWaiting() throws Exception {
        try (RunningJar jar = startWith("--management-port", "0")) {
            URI managementLive = jar.managementUri("/health/live");
            HttpClient honest = HttpClient.newBuilder().sslContext(pki.clientContext())
                    .version(HttpClient.Version.HTTP_2).build();
            List<URI> probes = List.of(jar.uri("/health"), managementLive);
            // Its connections made first, as a kubelet's or a scraper's are long before an attack.
            for (URI probe : probes) {
                assertEquals(200, honest.send(HttpRequest.newBuilder(probe).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode());
            }
            List<ZeroWindowClient> attackers = new ArrayList<>();
            for (int connection = 0; connection < 2; connection++) {
                attackers.add(ZeroWindowClient.start(pki.clientContext(), jar.port(), "/openapi.yaml"));
                attackers.add(ZeroWindowClient.start(pki.clientContext(), managementLive.getPort(), "/metrics"));
            }
            List<String> late = new ArrayList<>();
            int answered = 0;
            long end = System.nanoTime() + ATTACK.toNanos();
            while (System.nanoTime() < end) {
                for (URI probe : probes) {
                    long start = System.nanoTime();
                    String outcome;
                    try {
                        HttpResponse<String> response = honest.send(HttpRequest.newBuilder(probe)
                                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                        outcome = response.version() + " " + response.statusCode();
                    } catch (IOException e) {
                        outcome = e.toString();
                    }
                    Duration took = Duration.ofNanos(System.nanoTime() - start);
                    if (!outcome.equals("HTTP_2 200") || took.compareTo(ANSWER_WITHIN) > 0) {
                        late.add("probe " + (answered + late.size() + 1) + ", " + probe + ": " + outcome + " in "
                                + took.toMillis() + " ms");
                    } else {
                        answered++;
                    }
                }
                // The honest client's own pace, as a kubelet probes on a period: no result is waited for here.
                Thread.sleep(PROBE_EVERY.toMillis());
            }
            for (ZeroWindowClient attacker : attackers) {
                attacker.stop();
            }
            assertEquals(List.of(), late, answered + " probes answered in time; the late ones:");
            for (ZeroWindowClient attacker : attackers) {
                assertTrue(attacker.stalledOnce.get() > 0, "the attacker's streams got an answer's head: " + attacker);
                assertTrue(attacker.opened.get() > attacker.maxStreams, "stalled streams ended, and the attacker "
                        + "asked again: " + attacker);
                assertEquals(List.of(), List.copyOf(attacker.endedLate), "each stalled stream ended within 20 s");
            }
        }
    }

    /**
     * A create whose DATA is one byte longer or shorter than its Content-Length, the head and the body in separate
     * writes, is reset by the server, and its request must still end (its access line is written) and leave the count
     * of requests in flight: a stop after it ends within its drain and a second, with exit 0.
     */
    @ParameterizedTest(name = "declared {0} against the body''s length")
    @ValueSource(ints = {-1, 1})
    void aStopAfterABodyThatContradictsItsContentLengthIsClean(int declaredOverActual) throws Exception {
        Duration drain = Duration.ofSeconds(1);
        try (RunningJar jar = startWith("--drain-seconds", Long.toString(drain.toSeconds()))) {
            try (Http2Streams client = Http2Streams.connect(pki.clientContext(), jar.port(), 65_535)) {
                // A first create, answered, so that the one measured meets no class still to load.
                Http2Streams.Exchange first = create(client, PLANT.length(), PLANT.replace("1", "2"));
                first.ended().get(10, TimeUnit.SECONDS);
                assertEquals(200, first.status().getNow(0));
            }
            try (Http2Streams client = Http2Streams.connect(pki.clientContext(), jar.port(), 65_535)) {
                create(client, PLANT.length() + declaredOverActual, PLANT).ended().get(10, TimeUnit.SECONDS);
            }
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20),
                    () -> accessLines(jar.outputSoFar()) == 2), "the reset request ended:\n" + jar.outputSoFar());
            long start = System.nanoTime();
            String output = jar.stopAndCollectOutput();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(0, jar.process().exitValue(), output);
            assertTrue(output.contains("plantstore stopped"), output);
            assertFalse(output.contains("closing the server failed"), output);
            assertTrue(took.compareTo(drain.plusSeconds(1)) < 0, "stopped in " + took.toMillis() + " ms\n" + output);
        }
    }

    /**
     * RFC 9113's malformed requests are refused before routing: a connection-specific field and {@code :scheme http}
     * on the TLS port are each 400, and the plant they would delete is still there for a well-formed delete.
     */
    @Test
    void malformedRequestsAre400AndNeverServed() throws Exception {
        try (RunningJar jar = startWith();
             Http2Streams client = Http2Streams.connect(pki.clientContext(), jar.port(), 65_535)) {
            Http2Streams.Exchange created = create(client, PLANT.length(), PLANT);
            created.ended().get(10, TimeUnit.SECONDS);
            assertEquals(200, created.status().getNow(0));
            for (Http2Streams.Exchange malformed : List.of(
                    client.openMalformed("https", "DELETE", "/plants/1", true, "Authorization", "Bearer h2-token",
                            "transfer-encoding", "chunked"),
                    client.openMalformed("https", "DELETE", "/plants/1", true, "Authorization", "Bearer h2-token",
                            "upgrade", "h2c"),
                    client.openMalformed("http", "DELETE", "/plants/1", true, "Authorization", "Bearer h2-token"))) {
                malformed.ended().get(10, TimeUnit.SECONDS);
                assertEquals(400, malformed.status().getNow(0), jar.outputSoFar());
            }
            Http2Streams.Exchange delete = client.open("DELETE", "/plants/1", true, "Authorization",
                    "Bearer h2-token");
            delete.ended().get(10, TimeUnit.SECONDS);
            assertEquals(204, delete.status().getNow(0), () -> "the malformed requests deleted the plant (reset: "
                    + delete.reset().getNow(null) + ")\n" + jar.outputSoFar());
        }
    }

    private static Http2Streams.Exchange create(Http2Streams client, int declaredLength, String body)
            throws Exception {
        Http2Streams.Exchange create = client.open("POST", "/plants", false, "Authorization", "Bearer h2-token",
                "Content-Type", "application/json", "Content-Length", Integer.toString(declaredLength));
        create.send(body.getBytes(StandardCharsets.UTF_8), true);
        return create;
    }

    private static long accessLines(String output) {
        return output.lines().filter(line -> line.contains(" access - ")).count();
    }

    /**
     * One connection announcing a window of 0 and keeping open as many streams of {@code GET path} as the server
     * allows: whenever one ends, it opens another.
     */
    private static final class ZeroWindowClient {

        /** Far below the 30 s idle time-out, far above the 10 s a stalled stream is allowed. */
        private static final Duration ENDS_WITHIN = Duration.ofSeconds(20);

        private final Http2Streams connection;
        private final String path;
        private final int maxStreams;
        private final Semaphore free;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger opened = new AtomicInteger();
        private final AtomicInteger stalledOnce = new AtomicInteger();
        private final ConcurrentLinkedQueue<String> endedLate = new ConcurrentLinkedQueue<>();
        private final Thread thread;

        private ZeroWindowClient(Http2Streams connection, String path) {
            this.connection = connection;
            this.path = path;
            this.maxStreams = Math.min(connection.maxStreams(), 128);
            this.free = new Semaphore(maxStreams);
            this.thread = new Thread(this::run, "zero-window " + path);
        }

        static ZeroWindowClient start(SSLContext tls, int port, String path) throws Exception {
            var client = new ZeroWindowClient(Http2Streams.connect(tls, port, 0), path);
            client.thread.start();
            return client;
        }

        private void run() {
            try {
                while (running.get()) {
                    if (!free.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                    long opening = System.nanoTime();
                    Http2Streams.Exchange exchange = connection.open("GET", path, true);
                    opened.incrementAndGet();
                    exchange.status().thenRun(stalledOnce::incrementAndGet);
                    exchange.ended().thenRun(() -> {
                        Duration lasted = Duration.ofNanos(System.nanoTime() - opening);
                        if (running.get() && lasted.compareTo(ENDS_WITHIN) > 0) {
                            endedLate.add(path + " stream lasted " + lasted.toMillis() + " ms");
                        }
                        free.release();
                    });
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                if (running.get()) {
                    endedLate.add(path + ": the attacker could not go on: " + e);
                }
            }
        }

        void stop() throws Exception {
            running.set(false);
            thread.join(10_000);
            connection.close();
        }

        @Override
        public String toString() {
            return path + ": " + opened + " streams opened of at most " + maxStreams + " at once, " + stalledOnce
                    + " answered with a head";
        }
    }
}
