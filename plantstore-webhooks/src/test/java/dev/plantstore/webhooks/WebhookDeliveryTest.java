package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.jdbc.JdbcPlantStore;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.WebhookSecrets;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delivery from the memory store's outbox to a receiver on a real HTTP server. */
class WebhookDeliveryTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(20);

    private WebhookReceiver receiver;
    private final List<PlantStore> stores = new ArrayList<>();
    private final Map<WebhookListener.Outcome, AtomicLong> outcomes = new ConcurrentHashMap<>();
    private final List<Long> backlogs = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() {
        stores.forEach(PlantStore::close);
        receiver.close();
    }

    private final WebhookListener counting = new WebhookListener() {
        @Override
        public void attempted(URI to, WebhookListener.Outcome outcome) {
            outcomes.computeIfAbsent(outcome, o -> new AtomicLong()).incrementAndGet();
        }

        @Override
        public void backlog(URI to, long pending, long oldestAgeMillis) {
            backlogs.add(pending);
        }
    };

    /** A memory store whose events go to the receiver, retried after 20 ms at first, for {@code retryPeriod}. */
    private PlantStore store(Duration retryPeriod) {
        var outbox = new MemoryOutbox(List.of(DeliverySettings.receiverKey(receiver.url())));
        var delivery = WebhookDelivery.start(outbox, settings(receiver.url(), retryPeriod),
                jetty(),
                OpenTelemetry.noop());
        PlantStore store = new DeliveringPlantStore(new InMemoryPlantStore(outbox), delivery);
        stores.add(store);
        return store;
    }

    private PlantStore store() {
        return store(Duration.ofHours(72));
    }

    private DeliverySettings settings(URI to, Duration retryPeriod) {
        return new DeliverySettings(List.of(to), WebhookSecrets.parse(SECRET), counting, retryPeriod,
                Duration.ofMillis(20));
    }

    private static Transports jetty() {
        return new WebhookHttpClient(DeliveryLimits.IN_FLIGHT, DeliveryLimits.ATTEMPT_DEADLINE,
                new SslContextFactory.Client());
    }

    private long count(WebhookListener.Outcome outcome) {
        return outcomes.getOrDefault(outcome, new AtomicLong()).get();
    }

    @Test
    void aReceiverThatFailsForAWhileGetsEveryEventWithTheSameIdAndBodyOnEachRetry() throws Exception {
        receiver.answer(503);
        PlantStore store = store();
        for (int id = 1; id <= 5; id++) {
            store.create(new NewPlant(id, "Plant " + id));
        }
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.received().size() >= 4), "retried while failing");
        receiver.answer(204);
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.accepted().size() == 5), "all accepted");
        Map<String, List<WebhookReceiver.Received>> byId = receiver.received().stream()
                .collect(Collectors.groupingBy(WebhookReceiver.Received::id));
        assertEquals(5, byId.size());
        for (var attempts : byId.values()) {
            assertEquals(1, attempts.stream().map(WebhookReceiver.Received::body).distinct().count(),
                    "each retry sends the same body");
        }
        assertTrue(count(WebhookListener.Outcome.FAILED) >= 1);
        // The receiver has answered before the sender has read the answer and told the listener.
        assertTrue(Poll.until(WAIT, LOOK, () -> count(WebhookListener.Outcome.DELIVERED) == 5),
                "every delivery is counted once: " + count(WebhookListener.Outcome.DELIVERED));
    }

    @Test
    void eachRequestIsSignedForItsIdTimestampAndBody() throws Exception {
        PlantStore store = store();
        store.create(new NewPlant(1, "Monstera", "aroid"));
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.accepted().size() == 1));
        var request = receiver.accepted().get(0);
        assertTrue(request.body().matches("\\{\"type\":\"plant.created\",\"timestamp\":\"[-0-9T:.]+Z\","
                + "\"data\":\\{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}}"), request.body());
        long timestamp = Long.parseLong(request.timestamp());
        assertTrue(Math.abs(System.currentTimeMillis() / 1000 - timestamp) < 60);
        assertEquals(standardWebhooksSignature(request.id(), timestamp, request.body()), request.signature());
    }

    /** The signature as Standard Webhooks defines it, computed here rather than by the code under test. */
    private static String standardWebhooksSignature(String id, long timestamp, String body)
            throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
        byte[] signed = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
        return "v1," + Base64.getEncoder().encodeToString(signed);
    }

    @Test
    void eventsOfOneIdArriveInOrderAndAnEventHeldBackDoesNotHoldOtherIds() throws Exception {
        receiver.answer(503);
        PlantStore store = store();
        store.create(new NewPlant(1, "Monstera"));
        store.delete(1);
        store.create(new NewPlant(1, "Fern"));
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.received().size() >= 3));
        receiver.answer(200);
        store.create(new NewPlant(2, "Moss"));
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.accepted().size() == 4));
        List<String> ofOne = receiver.accepted().stream().map(WebhookReceiver.Received::body)
                .filter(body -> body.contains("\"id\":1")).map(body -> body.substring(9, 22)).toList();
        assertEquals(List.of("plant.created", "plant.deleted", "plant.created"), ofOne);
        assertEquals(1, receiver.received().stream().filter(r -> r.body().contains("plant.deleted")).count(),
                "the delete was not sent before its create was delivered");
    }

    @Test
    void anEventStillFailingAfterTheRetryPeriodIsKeptAsUndeliverableAndCounted(@TempDir Path dir) throws Exception {
        receiver.answer(500);
        String key = DeliverySettings.receiverKey(receiver.url());
        var jdbc = new JdbcPlantStore(DurableSqlite.dataSource(dir.resolve("plants.db")), Duration.ofSeconds(5),
                CommitListener.NONE, List.of(key));
        var delivery = WebhookDelivery.start(jdbc.outbox(), settings(receiver.url(), Duration.ofMillis(300)), jetty(),
                OpenTelemetry.noop());
        try (var store = new DeliveringPlantStore(jdbc, delivery)) {
            store.create(new NewPlant(1, "Monstera"));
            assertTrue(Poll.until(WAIT, LOOK, () -> jdbc.outbox().givenUp(Optional.of(key), 10).size() == 1));
            assertTrue(Poll.until(WAIT, LOOK, () -> count(WebhookListener.Outcome.UNDELIVERABLE) == 1),
                    "the undeliverable event is counted once: " + count(WebhookListener.Outcome.UNDELIVERABLE));
            assertEquals(0, jdbc.outbox().backlogs().counted(key).pending());
        }
    }

    @Test
    void anEventGivenUpOnIsLoggedOnceAtErrorWithItsIdAndWhyItFailed() throws Exception {
        receiver.answer(500);
        try (var log = CapturedLog.of(ReceiverHealth.LOG.getName())) {
            store(Duration.ofMillis(300)).create(new NewPlant(1, "Monstera"));
            Supplier<List<String>> errors = () -> log.records().stream()
                    .filter(line -> line.getLevel() == Level.SEVERE).map(LogRecord::getMessage).toList();
            assertTrue(Poll.until(WAIT, LOOK, () -> !errors.get().isEmpty()), "an error line");
            List<String> givenUp = errors.get();
            assertEquals(1, givenUp.size(), givenUp.toString());
            String eventId = receiver.received().get(0).id();
            // The memory store drops it, a database store keeps it: the line claims neither.
            assertTrue(givenUp.get(0).matches(Pattern.quote("webhooks to " + DeliverySettings.receiverKey(
                    receiver.url()) + ": event " + eventId + " (plant.created of plant 1) is undeliverable after ")
                    + "[0-9]+" + Pattern.quote(" attempts over PT0.3S (last: HTTP 500); it is no longer retried")),
                    givenUp.get(0));
        }
    }

    @Test
    void aRedirectIsNotFollowedButCountsAsAFailure() throws Exception {
        receiver.answer(307);
        PlantStore store = store();
        store.create(new NewPlant(1, "Monstera"));
        assertTrue(Poll.until(WAIT, LOOK, () -> count(WebhookListener.Outcome.FAILED) >= 2));
        assertEquals(0, count(WebhookListener.Outcome.DELIVERED));
    }

    @Test
    void theBacklogIsReported() throws Exception {
        receiver.answer(503);
        PlantStore store = store();
        store.create(new NewPlant(1, "Monstera"));
        store.create(new NewPlant(2, "Fern"));
        assertTrue(Poll.until(Duration.ofSeconds(15), LOOK, () -> backlogs.contains(2L)), backlogs.toString());
    }

    /** A receiver that is down for longer than the test: its events wait in the database, read a page at a time. */
    @Test
    void theEventsOfAReceiverThatIsDownStayInTheDatabaseAndAreReadAPageAtATime(@TempDir Path dir) throws Exception {
        URI down = receiver.url();
        receiver.close();
        var store = new JdbcPlantStore(DurableSqlite.dataSource(dir.resolve("plants.db")), Duration.ofSeconds(5),
                CommitListener.NONE, List.of(DeliverySettings.receiverKey(down)));
        List<Integer> claimSizes = new CopyOnWriteArrayList<>();
        Outbox countingClaims = new Outbox() {
            @Override
            public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
                List<PlantEvent> claimed = store.outbox().claim(receiver, nowMillis, max);
                claimSizes.add(claimed.size());
                return claimed;
            }

            @Override
            public void delivered(List<PlantEvent> events) {
                store.outbox().delivered(events);
            }

            @Override
            public void reschedule(List<PlantEvent> events, long dueAtMillis, boolean afterFailure) {
                store.outbox().reschedule(events, dueAtMillis, afterFailure);
            }

            @Override
            public void giveUp(List<PlantEvent> events) {
                store.outbox().giveUp(events);
            }

            @Override
            public int turnOff(String receiver, long nowMillis) {
                return store.outbox().turnOff(receiver, nowMillis);
            }

            @Override
            public boolean isOff(String receiver) {
                return store.outbox().isOff(receiver);
            }

            @Override
            public CommittedEvents committed() {
                return store.outbox().committed();
            }

            @Override
            public Backlogs backlogs() {
                return store.outbox().backlogs();
            }
        };
        for (int id = 0; id < 400; id++) {
            store.create(new NewPlant(id, "Plant " + id));
        }
        var delivery = WebhookDelivery.start(countingClaims,
                settings(down, Duration.ofHours(72)),
                jetty(), OpenTelemetry.noop());
        PlantStore delivering = new DeliveringPlantStore(store, delivery);
        try {
            assertTrue(Poll.until(WAIT, LOOK, () -> claimSizes.stream().filter(size -> size > 0).count() >= 6),
                    claimSizes::toString);
            assertEquals(400, store.outbox().backlogs().counted(DeliverySettings.receiverKey(down)).pending(),
                    "every event waits, none is lost");
            List<Integer> sizes = List.copyOf(claimSizes);
            assertEquals(DeliveryLimits.IN_FLIGHT, sizes.get(0), "a page, not every pending event: " + sizes);
            assertTrue(sizes.subList(1, sizes.size()).stream().allMatch(size -> size <= 1),
                    "while the receiver fails, one event at a time: " + sizes);
        } finally {
            delivering.close();
        }
    }

    @Test
    void aReceiverThatIsDownSlowsNoWriteAndNoHealthCheck() throws Exception {
        receiver.hang();
        PlantStore store = store();
        store.create(new NewPlant(0, "first"));
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.received().size() == 1), "the receiver holds a request");
        long start = System.nanoTime();
        for (int id = 1; id <= 200; id++) {
            store.create(new NewPlant(id, "Plant"));
        }
        assertTrue(store.isAvailable());
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis < 2_000, "200 creates took " + tookMillis + " ms");
    }

    /** The provider's delivery: one HTTP client for every receiver, whose threads are not named as a worker is. */
    @Test
    void everyReceiverSendsThroughOneClientWhoseThreadsAreNamedApartFromTheWorkers() throws Exception {
        URI first = URI.create(receiver.url() + "/first");
        URI second = URI.create(receiver.url() + "/second");
        List<String> keys = List.of(DeliverySettings.receiverKey(first), DeliverySettings.receiverKey(second));
        var outbox = new MemoryOutbox(keys);
        var delivery = new HttpDeliveryProvider().start(outbox, new DeliverySettings(List.of(first, second),
                WebhookSecrets.parse(SECRET), counting, Duration.ofHours(72), Duration.ofMillis(20)));
        try (var store = new DeliveringPlantStore(new InMemoryPlantStore(outbox), delivery)) {
            store.create(new NewPlant(1, "Monstera"));
            assertTrue(Poll.until(WAIT, LOOK, () -> receiver.accepted().size() == 2), "each receiver has its event");
            List<String> threads = Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
            for (String key : keys) {
                assertEquals(List.of("plantstore-webhook " + key),
                        threads.stream().filter(name -> name.startsWith("plantstore-webhook " + key)).toList(),
                        "the receiver's worker alone bears its name: " + threads);
            }
            assertTrue(threads.stream().anyMatch(name -> name.startsWith(WebhookHttpClient.THREADS)),
                    threads::toString);
        }
    }
}
