package dev.plantstore.core.webhooks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Writes wait for the delivery rather than leave it behind; a receiver that fails or answers too slowly to take more,
 * and a backlog an outage left, hold up no write.
 */
class WritesWaitForDeliveryTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(10);

    private final AtomicReference<Outbox.Backlog> unsent = new AtomicReference<>(new Outbox.Backlog(0, 0));
    private final AtomicInteger turns = new AtomicInteger();
    private volatile int eventsToClaim;
    private WebhookDelivery delivery;

    @AfterEach
    void stop() {
        if (delivery != null) {
            delivery.close();
        }
    }

    @Test
    void aWriteWaitsWhileAReceiverThatKeepsPaceHasMoreThanRoomUnsent() throws Exception {
        start(Sockets.freePort());
        unsent.set(new Outbox.Backlog(WebhookDelivery.ROOM + 1, System.currentTimeMillis()));
        assertTrue(Poll.until(WAIT, LOOK, delivery::holdsWrites), "writes held");
        long started = System.nanoTime();
        delivery.awaitRoom();
        assertTrue(System.nanoTime() - started >= WebhookDelivery.LONGEST_WRITE_WAIT.toNanos(),
                "the write waited its longest while nothing was sent");
        unsent.set(new Outbox.Backlog(WebhookDelivery.ROOM, System.currentTimeMillis()));
        assertTrue(Poll.until(WAIT, LOOK, () -> !delivery.holdsWrites()), "writes go once there is room");
    }

    @Test
    void aBacklogOlderThanTenSecondsHoldsUpNoWrite() throws Exception {
        start(Sockets.freePort());
        long older = System.currentTimeMillis() - WebhookDelivery.HOLDS_WRITES_WITHIN.toMillis() - 1;
        unsent.set(new Outbox.Backlog(WebhookDelivery.ROOM * 10L, older));
        int taken = turns.get();
        assertTrue(Poll.until(WAIT, LOOK, () -> turns.get() > taken + 2), "the worker took turns");
        assertFalse(delivery.holdsWrites(), "a backlog an outage left holds up no write");
    }

    @Test
    void aReceiverWithAllItsRequestsInFlightHoldsUpNoWrite() throws Exception {
        try (var silent = new ServerSocket(0, 2 * WebhookDelivery.IN_FLIGHT, InetAddress.getLoopbackAddress())) {
            start(silent.getLocalPort());
            unsent.set(new Outbox.Backlog(WebhookDelivery.ROOM + 1, System.currentTimeMillis()));
            assertTrue(Poll.until(WAIT, LOOK, delivery::holdsWrites), "writes held while requests were to spare");
            eventsToClaim = WebhookDelivery.IN_FLIGHT;
            // Within the attempt's time-out: past it, the requests fail, and a failing receiver holds up no write.
            assertTrue(Poll.until(DeliverySettings.ATTEMPT_TIMEOUT.dividedBy(2), LOOK, () -> !delivery.holdsWrites()),
                    "a receiver that answers none of its requests in flight holds up no write");
        }
    }

    @Test
    void aFailingReceiverHoldsUpNoWrite() throws Exception {
        var outcomes = new AtomicInteger();
        start(Sockets.freePort(), new WebhookListener() {
            @Override
            public void attempted(URI to, Outcome outcome) {
                outcomes.incrementAndGet();
            }
        });
        unsent.set(new Outbox.Backlog(WebhookDelivery.ROOM + 1, System.currentTimeMillis()));
        assertTrue(Poll.until(WAIT, LOOK, delivery::holdsWrites), "writes held while the receiver kept pace");
        eventsToClaim = 1;
        assertTrue(Poll.until(WAIT, LOOK, () -> outcomes.get() > 0), "an attempt failed");
        assertTrue(Poll.until(WAIT, LOOK, () -> !delivery.holdsWrites()), "a failing receiver holds up no write");
    }

    private void start(int port) {
        start(port, WebhookListener.NONE);
    }

    private void start(int port, WebhookListener listener) {
        var settings = new DeliverySettings(List.of(URI.create("http://127.0.0.1:" + port + "/")),
                WebhookSigner.of(SECRET), listener, Duration.ofHours(72), DeliverySettings.FIRST_RETRY,
                (SSLSocketFactory) SSLSocketFactory.getDefault());
        delivery = WebhookDelivery.start(new StubOutbox(), settings);
    }

    /** An outbox that tells the worker what the test sets: its unsent backlog, and events to claim on demand. */
    private final class StubOutbox implements Outbox {

        @Override
        public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
            List<PlantEvent> claimed = new ArrayList<>();
            for (long seq = 1; seq <= Math.min(max, eventsToClaim); seq++) {
                claimed.add(new PlantEvent(seq, receiver, seq, PlantEvent.CREATED, new Plant("Fern", null), nowMillis,
                        0, nowMillis + LEASE.toMillis(), nowMillis));
            }
            eventsToClaim = 0;
            return claimed;
        }

        @Override
        public void delivered(List<PlantEvent> events) {
        }

        @Override
        public void release(List<PlantEvent> events) {
        }

        @Override
        public void retryAt(PlantEvent event, long atMillis) {
        }

        @Override
        public void undeliverable(PlantEvent event) {
        }

        @Override
        public Backlog backlog(String receiver) {
            return unsent.get();
        }

        @Override
        public Optional<Backlog> backlogWithoutScan(String receiver) {
            turns.incrementAndGet();
            return Optional.of(unsent.get());
        }

        @Override
        public long oldestRecordedAt(String receiver) {
            return unsent.get().oldestRecordedAtMillis();
        }

        @Override
        public long undeliverableCount(String receiver) {
            return 0;
        }
    }
}
