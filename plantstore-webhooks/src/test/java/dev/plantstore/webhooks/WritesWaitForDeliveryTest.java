package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WebhookSecrets;
import dev.plantstore.core.webhooks.WritePacing;
import dev.plantstore.testkit.Poll;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Writes wait for the delivery rather than leave it behind; a receiver that fails or has all its requests in flight,
 * and a backlog an outage left, hold up no write. The pace is the test's: the outbox reports the backlog it is told,
 * and the transport answers only when the test says so.
 */
class WritesWaitForDeliveryTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(10);

    private final AtomicReference<Backlogs.Backlog> unsent = new AtomicReference<>(new Backlogs.Backlog(0, 0));
    private final AtomicInteger turns = new AtomicInteger();
    private final Queue<Runnable> answers = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sent = new AtomicInteger();
    private volatile int eventsToClaim;
    private ReceiverWorker worker;

    @AfterEach
    void stop() {
        if (worker != null) {
            worker.stop();
            worker.awaitStopped();
        }
    }

    @Test
    void aWriteWaitsWhileMoreThanRoomOfRecentEventsAreUnsentAndGoesOnceThereIsRoom() throws Exception {
        var pacing = new WritePacing(DeliveryLimits.UNSENT_ROOM);
        long now = System.currentTimeMillis();
        pacing.decide(DeliveryLimits.UNSENT_ROOM + 1, now, now, false);
        var write = new Thread(() -> pacing.awaitRoom(System.nanoTime() + WAIT.toNanos()));
        write.start();
        assertTrue(Poll.until(WAIT, LOOK, () -> write.getState() == Thread.State.TIMED_WAITING), "the write waits");
        pacing.decide(DeliveryLimits.UNSENT_ROOM, now, now, false);
        write.join(WAIT.toMillis());
        assertFalse(write.isAlive(), "the write went once there was room");
    }

    @Test
    void aWriteWaitsAtMostUntilItsDeadline() {
        var pacing = new WritePacing(DeliveryLimits.UNSENT_ROOM);
        long now = System.currentTimeMillis();
        pacing.decide(DeliveryLimits.UNSENT_ROOM + 1, now, now, false);
        long deadline = System.nanoTime() + Duration.ofMillis(50).toNanos();
        assertTrue(pacing.awaitRoom(deadline));
        assertTrue(System.nanoTime() - deadline >= 0, "it waited until its deadline, no longer needed");
    }

    @Test
    void aBacklogOlderThanTenSecondsHoldsUpNoWrite() {
        var pacing = new WritePacing(DeliveryLimits.UNSENT_ROOM);
        long now = System.currentTimeMillis();
        long outageAgo = WritePacing.HOLDS_WRITES_WITHIN.toMillis() + 1;
        pacing.decide(DeliveryLimits.UNSENT_ROOM * 10L, now - outageAgo, now, false);
        assertFalse(pacing.holdsWrites());
    }

    @Test
    void aBacklogHoldsUpWritesUntilItsOldestEventIsTenSecondsOld() {
        var pacing = new WritePacing(DeliveryLimits.UNSENT_ROOM);
        long now = System.currentTimeMillis();
        long tenSeconds = WritePacing.HOLDS_WRITES_WITHIN.toMillis();
        pacing.decide(DeliveryLimits.UNSENT_ROOM + 1, now - tenSeconds + 1, now, false);
        assertTrue(pacing.holdsWrites(), "a millisecond short of ten seconds");
        pacing.decide(DeliveryLimits.UNSENT_ROOM + 1, now - tenSeconds, now, false);
        assertFalse(pacing.holdsWrites(), "ten seconds old");
    }

    @Test
    void aReceiverThatIsTheLimitHoldsUpNoWrite() {
        var pacing = new WritePacing(DeliveryLimits.UNSENT_ROOM);
        long now = System.currentTimeMillis();
        pacing.decide(DeliveryLimits.UNSENT_ROOM + 1, now, now, true);
        assertFalse(pacing.holdsWrites());
    }

    @Test
    void aReceiverWithAllItsRequestsInFlightHoldsUpNoWrite() throws Exception {
        start(WebhookListener.NONE);
        unsent.set(new Backlogs.Backlog(DeliveryLimits.UNSENT_ROOM + 1, System.currentTimeMillis()));
        assertTrue(Poll.until(WAIT, LOOK, () -> worker.pacing().holdsWrites()), "held while requests were to spare");
        eventsToClaim = DeliveryLimits.IN_FLIGHT;
        assertTrue(Poll.until(WAIT, LOOK, () -> sent.get() == DeliveryLimits.IN_FLIGHT), "every request in flight");
        assertTrue(Poll.until(WAIT, LOOK, () -> !worker.pacing().holdsWrites()),
                "a receiver that answers none of its requests in flight holds up no write");
    }

    @Test
    void aFailingReceiverHoldsUpNoWrite() throws Exception {
        var outcomes = new AtomicInteger();
        start(new WebhookListener() {
            @Override
            public void attempted(URI to, Outcome outcome) {
                outcomes.incrementAndGet();
            }
        });
        unsent.set(new Backlogs.Backlog(DeliveryLimits.UNSENT_ROOM + 1, System.currentTimeMillis()));
        assertTrue(Poll.until(WAIT, LOOK, () -> worker.pacing().holdsWrites()), "held while the receiver kept pace");
        eventsToClaim = 1;
        assertTrue(Poll.until(WAIT, LOOK, () -> sent.get() == 1), "an attempt was sent");
        answers.poll().run();
        assertTrue(Poll.until(WAIT, LOOK, () -> outcomes.get() > 0), "the attempt failed");
        assertTrue(Poll.until(WAIT, LOOK, () -> !worker.pacing().holdsWrites()),
                "a failing receiver holds up no write");
    }

    private void start(WebhookListener listener) throws Exception {
        Transport answeredWhenTold = new Transport() {
            @Override
            public void send(PlantEvent event, SignedRequest request, Ended ended) {
                // The answer is ready before the test can count the request as sent.
                answers.add(() -> ended.ended(event, new Outcome.Answered(500)));
                sent.incrementAndGet();
            }

            @Override
            public void close() {
            }
        };
        worker = new ReceiverWorker(URI.create("http://127.0.0.1:9/"), new StubOutbox(), answeredWhenTold,
                new WebhookSigner(WebhookSecrets.parse(SECRET)),
                new RetryPolicy(Duration.ofSeconds(1), Duration.ofHours(72)), listener, OpenTelemetry.noop());
        worker.start();
        assertTrue(Poll.until(WAIT, LOOK, () -> turns.get() > 0), "the worker took a turn");
    }

    /** An outbox that tells the worker what the test sets: its unsent backlog, and events to claim on demand. */
    private final class StubOutbox implements Outbox, Backlogs {

        private final CommittedEvents committed = new CommittedEvents();

        @Override
        public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
            List<PlantEvent> claimed = new ArrayList<>();
            for (long seq = 1; seq <= Math.min(max, eventsToClaim); seq++) {
                claimed.add(new PlantEvent(seq, receiver, seq, PlantEvent.CREATED, new Plant("Fern", null), nowMillis,
                        0, nowMillis + LEASE.toMillis(), nowMillis, Optional.empty()));
            }
            eventsToClaim = 0;
            return claimed;
        }

        @Override
        public void delivered(List<PlantEvent> events) {
        }

        @Override
        public void reschedule(List<PlantEvent> events, long dueAtMillis, boolean afterFailure) {
        }

        @Override
        public void giveUp(List<PlantEvent> events) {
        }

        @Override
        public int turnOff(String receiver, long nowMillis) {
            return 0;
        }

        @Override
        public boolean isOff(String receiver) {
            return false;
        }

        @Override
        public CommittedEvents committed() {
            return committed;
        }

        @Override
        public Backlogs backlogs() {
            return this;
        }

        @Override
        public Backlog counted(String receiver) {
            return unsent.get();
        }

        @Override
        public Optional<Backlog> withoutScan(String receiver) {
            turns.incrementAndGet();
            return Optional.of(unsent.get());
        }

        @Override
        public long oldestRecordedAt(String receiver) {
            return unsent.get().oldestRecordedAtMillis();
        }
    }
}
