package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.ClosedLoopClients;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import dev.plantstore.testkit.WebhookReceiver;
import dev.plantstore.testkit.WebhookReceiver.Received;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhook deliveries under load: a closed-loop create load loses no event on any store, a backlog left by a receiver
 * that was down drains at a steady rate, and a receiver that answers slowly still gets hundreds of events a second.
 * Asserted on what the receiver got and by when, never on a rate of the machine, except the ratio of one drain's first
 * part to its last and the slow receiver's rate.
 */
@Tag("heavy")
@Tag("alone")
class WebhookPaceIT {

    private static final String TOKEN = "webhook-pace-token";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration LOAD = Duration.ofSeconds(10);
    /** Clients of the keep-pace load, each sending its next create as soon as the last is answered. */
    private static final int LOAD_CLIENTS = 64;
    private static final int CLIENTS = 16;
    /** However slow the machine, every event of a load arrives within this, and none stays pending. */
    private static final Duration ARRIVE_WITHIN = Duration.ofSeconds(60);
    /**
     * Events of the backlog a restarted server drains: enough for the drain's first and last fifths to show whether a
     * delivery costs more for a larger backlog. The million-event drain is the benchmark's ({@code bench/webhooks}).
     */
    private static final int BACKLOG = 50_000;
    private static final Duration LOOK = Duration.ofMillis(20);
    /** Ids of every load's creates, so that no load creates a plant an earlier one did. */
    private static final AtomicLong NEXT_ID = new AtomicLong();

    @TempDir
    Path dir;

    private final List<WebhookReceiver> receivers = new ArrayList<>();

    @BeforeEach
    void startReceivers() throws Exception {
        receivers.add(new WebhookReceiver());
        receivers.add(new WebhookReceiver());
    }

    @AfterEach
    void stopReceivers() {
        receivers.forEach(WebhookReceiver::close);
    }

    private Map<String, String> env(List<WebhookReceiver> to) {
        String urls = String.join(",", to.stream().map(receiver -> receiver.url().toString()).toList());
        return Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET, "PLANTSTORE_WEBHOOK_URL", urls);
    }

    @Test
    void onTheMemoryStoreEveryEventOfALoadArrivesAndNoneStaysPending() throws Exception {
        everyEventArrives(List.of(receivers.get(0)), "--store", "memory");
    }

    /** One load per store: on SQLite to two receivers, each of which must get every event, and none stays pending. */
    @Test
    void onSqliteEachOfTwoReceiversGetsEveryEventOfALoadAndNoneStaysPending() throws Exception {
        everyEventArrives(receivers, "--store", "sqlite:" + dir.resolve("plants.db"));
    }

    @Test
    void onPostgresEveryEventOfALoadArrivesAndNoneStaysPending() throws Exception {
        try (TestPostgres postgres = TestPostgres.freshSchema()) {
            everyEventArrives(List.of(receivers.get(0)), "--store", postgres.schemaUrl());
        }
    }

    /**
     * A closed-loop create load of {@value #LOAD_CLIENTS} clients: every acknowledged create's event reaches each
     * receiver, and once they have, the oldest-pending gauge reads 0. The share that arrived while the load ran is
     * printed, not asserted: a receiver in this JVM, beside the load's clients, may be the limit on a slow or busy
     * machine, and then writes rightly do not wait for it. That share, and the writes' waiting for a receiver that
     * keeps pace, are the benchmark's ({@code bench/webhooks pace}) and {@code WritesWaitForDeliveryTest}'s.
     */
    private void everyEventArrives(List<WebhookReceiver> to, String... store) throws Exception {
        List<String> args = new ArrayList<>(List.of(store));
        args.addAll(List.of("--management-port", "0"));
        try (var jar = RunningJar.start(dir, env(to), args.toArray(String[]::new))) {
            long end = System.nanoTime() + LOAD.toNanos();
            Set<Long> acknowledged = createUnderLoad(jar, LOAD_CLIENTS, () -> System.nanoTime() - end < 0);
            for (WebhookReceiver receiver : to) {
                long byLoadEnd = createdIds(receiver).stream().filter(acknowledged::contains).count();
                System.out.printf("%s: %d of %d acknowledged creates' events had arrived when the load ended%n",
                        receiver.url(), byLoadEnd, acknowledged.size());
            }
            for (WebhookReceiver receiver : to) {
                assertTrue(Poll.until(ARRIVE_WITHIN, LOOK, () -> createdIds(receiver).containsAll(acknowledged)),
                        () -> receiver.acceptedCount() + " of " + acknowledged.size() + " events arrived within "
                                + ARRIVE_WITHIN + " of the load's end");
            }
            assertTrue(Poll.until(ARRIVE_WITHIN, LOOK, () -> oldestPendingSeconds(jar) == 0),
                    () -> "the oldest pending event is " + oldestPendingSeconds(jar) + " s old after all arrived");
            assertTrue(jar.metrics().contains("plantstore_webhook_delivery_lag_seconds_bucket"),
                    "the lag of each delivery is a histogram");
        }
    }

    /** The largest {@code plantstore_webhook_oldest_pending_seconds} over the receivers. */
    private static double oldestPendingSeconds(RunningJar jar) {
        double most = 0;
        for (String line : jar.metrics().split("\n")) {
            if (line.startsWith("plantstore_webhook_oldest_pending_seconds{")) {
                most = Math.max(most, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return most;
    }

    /**
     * A backlog that a receiver missed while it was down, drained by a server started once it is back: the last part
     * arrives at least 0.8 times as fast as the first, so a delivery costs no more for a larger backlog.
     */
    private void drainsSteadily(String... store) throws Exception {
        WebhookReceiver receiver = receivers.get(0);
        receiver.answer(503);
        List<String> args = new ArrayList<>(List.of(store));
        args.addAll(List.of("--drain-seconds", "0"));
        try (var recording = RunningJar.start(dir, env(List.of(receiver)), args.toArray(String[]::new))) {
            var sent = new AtomicLong();
            Set<Long> acknowledged = createUnderLoad(recording, CLIENTS, () -> sent.incrementAndGet() <= BACKLOG);
            assertEquals(BACKLOG, acknowledged.size(), "every create of the backlog acknowledged");
        }
        receiver.answer(204);
        long started = System.nanoTime();
        try (var draining = RunningJar.start(dir, env(List.of(receiver)), store)) {
            assertTrue(Poll.until(Duration.ofMinutes(4), Duration.ofMillis(200),
                    () -> receiver.acceptedCount() >= BACKLOG), () -> receiver.acceptedCount() + " of " + BACKLOG
                    + " events arrived in " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s: "
                    + draining.outputSoFar());
        }
        List<Long> arrivals = firstArrivals(receiver);
        assertEquals(BACKLOG, arrivals.size(), "each event arrived");
        int part = BACKLOG / 5;
        double first = part / seconds(arrivals.get(part - 1) - arrivals.get(0));
        double last = part / seconds(arrivals.get(BACKLOG - 1) - arrivals.get(BACKLOG - part));
        assertTrue(last >= 0.8 * first, String.format("the first %d events arrived at %.0f a second, the last %d at "
                + "%.0f", part, first, part, last));
    }

    @Test
    void onSqliteABacklogOf50000EventsDrainsAtASteadyRate() throws Exception {
        drainsSteadily("--store", "sqlite:" + dir.resolve("plants.db"));
    }

    @Test
    void onPostgresABacklogOf50000EventsDrainsAtASteadyRate() throws Exception {
        try (TestPostgres postgres = TestPostgres.freshSchema()) {
            drainsSteadily("--store", postgres.schemaUrl());
        }
    }

    /**
     * A receiver that takes 200 ms for each request still gets 200 events a second, several requests in flight, while
     * the events of one plant arrive in the order of its writes, never two of an id at once. The events are recorded
     * first, while the receiver refuses them, and sent by a server started afterwards, so that the rate measured is
     * the delivery's alone, not the writes'.
     */
    @Test
    void aReceiverThatAnswersAfter200MsGets200EventsASecondAndEachPlantsEventsInOrder() throws Exception {
        WebhookReceiver receiver = receivers.get(0);
        receiver.answer(503);
        int plantsWrittenFourTimes = 50;
        int plantsCreatedOnce = 800;
        int events = plantsWrittenFourTimes * 4 + plantsCreatedOnce;
        String[] store = {"--store", "sqlite:" + dir.resolve("p.db"), "--drain-seconds", "0"};
        try (var jar = RunningJar.start(dir, env(List.of(receiver)), store)) {
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> writes = new ArrayList<>();
                for (long id = 0; id < plantsWrittenFourTimes; id++) {
                    long plant = id;
                    writes.add(clients.submit(() -> {
                        for (int round = 0; round < 2; round++) {
                            assertEquals(200, send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                                    PlantRequests.plantJson(plant, "Round " + round))));
                            assertEquals(204, send(PlantRequests.delete(jar.uri("/plants/" + plant), TOKEN)));
                        }
                        return null;
                    }));
                }
                for (long id = 1_000; id < 1_000 + plantsCreatedOnce; id++) {
                    long plant = id;
                    writes.add(clients.submit(() -> {
                        assertEquals(200, send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                                PlantRequests.plantJson(plant, "Once"))));
                        return null;
                    }));
                }
                for (Future<?> write : writes) {
                    write.get();
                }
            } finally {
                clients.shutdownNow();
            }
        }
        receiver.answer(204);
        receiver.delay(200);
        try (var sending = RunningJar.start(dir, env(List.of(receiver)), store)) {
            assertTrue(Poll.until(Poll.PATIENCE, LOOK, () -> receiver.acceptedCount() >= events),
                    () -> receiver.acceptedCount() + " of " + events + " events arrived: " + sending.outputSoFar());
        }
        List<Received> accepted = receiver.accepted();
        double took = seconds(accepted.get(events - 1).arrivedAtNanos() - accepted.get(0).arrivedAtNanos());
        assertTrue(events / took >= 200, String.format("%d events took %.1f s to arrive", events, took));
        Map<Long, List<String>> byPlant = new HashMap<>();
        for (Received request : accepted) {
            byPlant.computeIfAbsent(request.plantId(), id -> new ArrayList<>()).add(request.type());
        }
        List<String> fourWrites = List.of("plant.created", "plant.deleted", "plant.created", "plant.deleted");
        for (long id = 0; id < plantsWrittenFourTimes; id++) {
            assertEquals(fourWrites, byPlant.get(id), "the events of plant " + id + " in order, each once");
        }
        assertEquals(0, receiver.sameIdOverlaps(), "never two requests of one event at once");
    }

    /** Creates plants of new ids from {@code clients} clients while {@code goOn}; returns the ids acknowledged 200. */
    private static Set<Long> createUnderLoad(RunningJar jar, int clientCount, BooleanSupplier goOn)
            throws Exception {
        Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        ClosedLoopClients.runUntilDone("pace-client", clientCount, (client, step) -> {
            if (!goOn.getAsBoolean()) {
                return false;
            }
            long id = NEXT_ID.incrementAndGet();
            if (send(PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, "Plant " + id)))
                    == 200) {
                acknowledged.add(id);
            }
            return true;
        });
        return acknowledged;
    }

    private static int send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static Set<Long> createdIds(WebhookReceiver receiver) {
        Set<Long> ids = new HashSet<>();
        for (Received request : receiver.accepted()) {
            if (request.type().equals("plant.created")) {
                ids.add(request.plantId());
            }
        }
        return ids;
    }

    /** When each event first arrived accepted, in order of arrival. */
    private static List<Long> firstArrivals(WebhookReceiver receiver) {
        Map<String, Long> first = new LinkedHashMap<>();
        for (Received request : receiver.accepted()) {
            first.putIfAbsent(request.id(), request.arrivedAtNanos());
        }
        return first.values().stream().sorted().toList();
    }

    private static double seconds(long nanos) {
        return Math.max(1, nanos) / 1e9;
    }
}
