package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.receiver.VerifyWebhook;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.ScriptedReceiver;
import dev.plantstore.testkit.ScriptedReceiver.Answer;
import dev.plantstore.testkit.ScriptedReceiver.Then;
import dev.plantstore.testkit.TestPostgres;
import dev.plantstore.testkit.WebhookReceiver;
import dev.plantstore.testkit.WebhookReceiver.Received;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plant events from the jar to a receiver the test runs: signed, at least once, in order per plant, across crashes. */
class WebhooksIT {

    private static final String TOKEN = "webhooks-token";
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Long enough for a lease of an instance that was killed (30 s) to run out, and the retries after it. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);

    @TempDir
    Path dir;

    @AutoClose
    private final WebhookReceiver receiver = WebhookReceiver.onFreePort();

    private Map<String, String> env() {
        return Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                "PLANTSTORE_WEBHOOK_URL", receiver.url().toString());
    }

    private static int create(RunningJar jar, long id, String name) throws Exception {
        return HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, name, null))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int delete(RunningJar jar, long id) throws Exception {
        return HTTP.send(PlantRequests.delete(URI.create(jar.uri("/plants/") + Long.toString(id)), TOKEN)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The accepted events, one per webhook-id, each as "type id". */
    private List<String> acceptedEvents() {
        Map<String, String> byId = new LinkedHashMap<>();
        for (Received request : receiver.accepted()) {
            byId.putIfAbsent(request.id(), event(request));
        }
        return List.copyOf(byId.values());
    }

    private static String event(Received request) {
        String body = request.body();
        String type = body.substring(body.indexOf("\"type\":\"") + 8,
                body.indexOf('"', body.indexOf("\"type\":\"") + 8));
        String id = body.substring(body.indexOf("\"id\":") + 5).replaceAll("[,}].*", "");
        return type + " " + id;
    }

    private boolean acceptedCount(int events) {
        return acceptedEvents().size() >= events;
    }

    @Test
    void aReceiverAnswering429WithRetryAfterGetsItsNextRequestNoSoonerAndItsStateLineSaysWhy() throws Exception {
        receiver.answer(429, "3");
        try (var jar = RunningJar.start(dir, env())) {
            assertEquals(200, create(jar, 1, "Plant 1"));
            // The wait holds from the moment the server read the answer: a write made before then may already be
            // on its way, so the next writes follow the state line that says the server read it.
            assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains("webhooks to " + receiver.url()
                    + ": failing (HTTP 429); waiting 3 s before the next attempt, as its Retry-After asks")),
                    jar::outputSoFar);
            // Writes go on while the receiver waits, and do not wait for it.
            for (int id = 2; id <= 5; id++) {
                assertEquals(200, create(jar, id, "Plant " + id));
            }
            receiver.answer(204);
            assertTrue(Poll.until(WAIT, LOOK, () -> acceptedCount(5)), () -> receiver.received().toString());
            List<Received> requests = receiver.received();
            long gapNanos = requests.get(1).arrivedAtNanos() - requests.get(0).arrivedAtNanos();
            assertTrue(gapNanos >= Duration.ofSeconds(3).toNanos(), "the next request came after " + gapNanos + " ns");
        }
    }

    @Test
    void aReceiverThatFailsForAWhileGetsEveryEventSignedWithTheSameIdAndBodyOnEachRetry() throws Exception {
        receiver.answer(503);
        try (var jar = RunningJar.start(dir, env(), "--management-port", "0")) {
            for (int id = 1; id <= 3; id++) {
                assertEquals(200, create(jar, id, "Plant " + id));
            }
            assertEquals(204, delete(jar, 2));
            assertTrue(Poll.until(WAIT, LOOK, () -> receiver.received().size() >= 5), "retried while failing");
            receiver.answer(200);
            assertTrue(Poll.until(WAIT, LOOK, () -> acceptedCount(4)), () -> receiver.received().toString());
            assertEquals(List.of("plant.created 1", "plant.created 2", "plant.created 3", "plant.deleted 2"),
                    acceptedEvents().stream().sorted().toList());
            Map<String, List<Received>> attempts = receiver.received().stream()
                    .collect(Collectors.groupingBy(Received::id));
            assertTrue(attempts.values().stream().anyMatch(tries -> tries.size() > 1), "some event was retried");
            for (List<Received> tries : attempts.values()) {
                assertEquals(1, tries.stream().map(Received::body).distinct().count(), "a retry sends the same body");
                for (Received request : tries) {
                    assertTrue(VerifyWebhook.isAuthentic(SECRET, request.id(), request.timestamp(),
                            request.signature(), request.body().getBytes(StandardCharsets.UTF_8)), request.toString());
                }
            }
            String receiverTag = "receiver=\"" + receiver.url() + "\"";
            assertTrue(Poll.until(WAIT, LOOK, () -> jar.metrics().contains(
                    "plantstore_webhook_deliveries_total{outcome=\"delivered\"," + receiverTag + "} 4.0")),
                    () -> jar.metrics());
            String metrics = jar.metrics();
            assertTrue(metrics.contains("plantstore_webhook_deliveries_total{outcome=\"failed\"," + receiverTag),
                    metrics);
            assertTrue(metrics.contains("plantstore_webhook_pending{" + receiverTag + "}"), metrics);
            assertTrue(metrics.contains("plantstore_webhook_oldest_pending_seconds{" + receiverTag + "}"), metrics);
            String log = jar.outputSoFar();
            assertTrue(log.contains("failing (HTTP 503)") && log.contains("recovered after"), log);
            long failed = receiver.received().size() - receiver.accepted().size();
            long failureLines = log.lines().filter(line -> line.contains("still failing") || line.contains("failing ("))
                    .count();
            assertTrue(failureLines < failed && failureLines <= 4,
                    failed + " failed attempts are logged as a state, not one line each:\n" + log);
        }
    }

    @Test
    void anIdenticalReCreateSendsNoEventAndEventsOfOneIdArriveInTheOrderOfTheirWrites() throws Exception {
        try (var jar = RunningJar.start(dir, env())) {
            assertEquals(200, create(jar, 7, "Monstera"));
            assertEquals(200, create(jar, 7, "Monstera"));
            assertEquals(409, create(jar, 7, "Fern"));
            assertEquals(404, delete(jar, 8));
            int ids = 10;
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Integer>> writes = new ArrayList<>();
                for (int round = 0; round < 6; round++) {
                    for (int id = 100; id < 100 + ids; id++) {
                        long plant = id;
                        writes.add(pool.submit(() -> create(jar, plant, "P")));
                        writes.add(pool.submit(() -> delete(jar, plant)));
                    }
                }
                for (Future<Integer> write : writes) {
                    write.get();
                }
            } finally {
                pool.shutdown();
            }
            assertEquals(200, create(jar, 9, "last"));
            assertTrue(Poll.until(WAIT, LOOK, () -> acceptedEvents().contains("plant.created 9")));
            List<String> events = acceptedEvents();
            assertEquals(1, events.stream().filter(e -> e.endsWith(" 7")).count(), "one event for id 7: " + events);
            Map<String, List<String>> byId = new HashMap<>();
            for (String event : events) {
                String[] parts = event.split(" ");
                byId.computeIfAbsent(parts[1], id -> new ArrayList<>()).add(parts[0]);
            }
            for (int id = 100; id < 100 + ids; id++) {
                List<String> ofId = byId.getOrDefault(Integer.toString(id), List.of());
                for (int i = 0; i < ofId.size(); i++) {
                    assertEquals(i % 2 == 0 ? "plant.created" : "plant.deleted", ofId.get(i), id + ": " + ofId);
                }
            }
        }
    }

    @Tag("heavy")
    @Test
    void eventsPendingWhenTheServerIsKilledArriveAfterItsRestart() throws Exception {
        receiver.answer(503);
        try (var jar = RunningJar.start(dir, env())) {
            for (int id = 1; id <= 20; id++) {
                assertEquals(200, create(jar, id, "Plant " + id));
            }
            jar.process().destroyForcibly().waitFor();
        }
        receiver.answer(200);
        try (var restarted = RunningJar.start(dir, env())) {
            assertTrue(Poll.until(WAIT, LOOK, () -> acceptedCount(20)), () -> "accepted " + acceptedEvents()
                    + "\n" + restarted.outputSoFar());
            assertEquals(20, acceptedEvents().size());
        }
    }

    /**
     * The jar's delivery against a receiver on a raw socket that answers with an empty head or hides a 200 behind a
     * 500: no event counts as delivered until the mended receiver answers it with a 2xx of its own, and the log says
     * the receiver is failing, without a stack trace.
     */
    @Test
    void aReceiverThatAnswersWithBrokenBytesLosesNoEventOnceMended() throws Exception {
        try (var scripted = new ScriptedReceiver()) {
            scripted.answer(request -> request.index() % 2 == 0
                    ? Answer.refusing("\r\n\r\n", Then.KEEP)
                    : Answer.refusing("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"
                            + ScriptedReceiver.OK, Then.KEEP));
            var env = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                    "PLANTSTORE_WEBHOOK_URL", scripted.url().toString());
            int events = 10;
            try (var jar = RunningJar.start(dir, env)) {
                for (int id = 1; id <= events; id++) {
                    assertEquals(200, create(jar, id, "Plant " + id));
                }
                // A failing receiver is sent one event at a time on the back-off: both broken answers, then mended.
                assertTrue(Poll.until(WAIT, LOOK, () -> scripted.requests().size() >= 2
                        && jar.outputSoFar().contains(": failing (")), jar::outputSoFar);
                scripted.mend();
                Set<Long> all = LongStream.rangeClosed(1, events).boxed().collect(Collectors.toSet());
                assertTrue(Poll.until(WAIT, LOOK, () -> scripted.answeredFor2xx().equals(all)),
                        () -> "answered with a 2xx: " + scripted.answeredFor2xx());
                assertFalse(jar.outputSoFar().contains("\tat "), jar::outputSoFar);
            }
        }
    }

    /**
     * A receiver is a third party: nothing it answers may cost the server more than a bounded amount of memory. The
     * server runs on a heap smaller than one answer, and exits when out of memory, as the container image's does. A
     * 200 whose head is larger than the heap fails its attempt with a short reason; the event stays pending and goes
     * again; a 200 whose body is larger than the heap is read past and delivers. The server serves on throughout.
     */
    @Test
    void answersLargerThanTheHeapCostTheServerABoundedAmountOfMemory() throws Exception {
        long largerThanTheHeap = 160L << 20;
        try (var scripted = new ScriptedReceiver()) {
            scripted.answer(request -> request.index() == 0
                    ? Answer.padded("HTTP/1.1 200 OK\r\nX-Big: ", largerThanTheHeap, "\r\nContent-Length: 0\r\n\r\n",
                            Then.KEEP, false)
                    : Answer.padded("HTTP/1.1 200 OK\r\nContent-Length: " + largerThanTheHeap + "\r\n\r\n",
                            largerThanTheHeap, "", Then.KEEP, true));
            var env = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                    "PLANTSTORE_WEBHOOK_URL", scripted.url().toString(),
                    "JDK_JAVA_OPTIONS", "-Xmx64m -XX:+ExitOnOutOfMemoryError");
            try (var jar = RunningJar.start(dir, env)) {
                assertEquals(200, create(jar, 1, "Fern"));
                String failing = "webhooks to " + scripted.url() + ": failing (";
                assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains(failing)
                        || !jar.process().isAlive()), jar::outputSoFar);
                assertTrue(jar.process().isAlive(), jar::outputSoFar);
                assertEquals(200, create(jar, 2, "Ivy"));
                String line = jar.outputSoFar().lines().filter(l -> l.contains(failing)).findFirst().orElseThrow();
                String reason = line.substring(line.indexOf(failing) + failing.length(), line.lastIndexOf(')'));
                assertEquals("bad answer: Response Header Bytes Too Large", reason, line);
                assertTrue(Poll.until(WAIT, LOOK, () -> scripted.answeredFor2xx().equals(Set.of(1L, 2L))
                        && jar.outputSoFar().contains(": recovered after") || !jar.process().isAlive()),
                        () -> "answered with a 2xx: " + scripted.answeredFor2xx() + "\n" + jar.outputSoFar());
                assertTrue(jar.process().isAlive(), jar::outputSoFar);
                assertEquals(200, create(jar, 3, "Moss"));
            }
        }
    }

    /** A receiver whose host name does not resolve is logged as such, not as a bare failure to connect. */
    @Test
    void aReceiverWhoseHostDoesNotResolveIsLoggedSo() throws Exception {
        // The jar's JVM resolves names from this file alone: the receiver's fails at once, without a DNS query.
        Path hosts = Files.writeString(dir.resolve("hosts"), "127.0.0.1 localhost\n");
        var env = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                "PLANTSTORE_WEBHOOK_URL", "http://receiver.plantstore.invalid/hook",
                "JDK_JAVA_OPTIONS", "-Djdk.net.hosts.file=" + hosts);
        try (var jar = RunningJar.start(dir, env)) {
            assertEquals(200, create(jar, 1, "Fern"));
            assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains(
                    "webhooks to http://receiver.plantstore.invalid/hook: failing (its host name could not be "
                            + "resolved); retrying with back-off")), jar::outputSoFar);
        }
    }

    @Test
    void aReceiverThatHangsOrIsDownSlowsNeitherTheApiNorItsHealth() throws Exception {
        receiver.hang();
        try (var jar = RunningJar.start(dir, env())) {
            assertEquals(200, create(jar, 0, "first"));
            assertTrue(Poll.until(WAIT, LOOK, () -> receiver.received().size() >= 1), "the receiver holds a request");
            long start = System.nanoTime();
            for (int id = 1; id <= 100; id++) {
                assertEquals(200, create(jar, id, "Plant " + id));
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            // Creates that waited for the hanging receiver would each wait its 10 s request time-out: 1,000 s for
            // the hundred. A tenth of that leaves a slow machine's creates room and still tells the two apart.
            assertTrue(millis < 100_000, "100 creates took " + millis + " ms");
            var health = HTTP.send(java.net.http.HttpRequest.newBuilder(jar.uri("/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode(), health.body());
            assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains("no answer within 10 s")),
                    jar::outputSoFar);
        }
    }

    @Tag("heavy")
    @Test
    void twoInstancesOnPostgresDeliverEveryEventOneInstanceAtATimeWhenOneIsKilled() throws Exception {
        try (TestPostgres postgres = TestPostgres.freshSchema()) {
            receiver.answer(200);
            receiver.delay(200);
            Map<String, String> env = env();
            String[] store = {"--store", postgres.schemaUrl()};
            try (var a = RunningJar.start(dir, env, store); var b = RunningJar.start(dir, env, store)) {
                for (int id = 1; id <= 60; id++) {
                    assertEquals(200, create(id % 2 == 0 ? a : b, id, "Plant " + id));
                }
                assertTrue(Poll.until(WAIT, LOOK, () -> receiver.received().size() >= 5));
                a.process().destroyForcibly().waitFor();
                for (int id = 61; id <= 80; id++) {
                    assertEquals(200, create(b, id, "Plant " + id));
                }
                assertTrue(Poll.until(WAIT, LOOK, () -> acceptedCount(80)),
                        () -> "accepted " + acceptedEvents().size());
                assertEquals(80, acceptedEvents().size());
                assertEquals(0, receiver.sameIdOverlaps(), "an event was sent by two instances at once");
            }
        }
    }
}
