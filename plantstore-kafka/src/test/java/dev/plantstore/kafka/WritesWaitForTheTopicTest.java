package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WritePacing;
import dev.plantstore.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Writes wait for the topic while a claim finds a full page of recent events and the producer has sends to spare;
 * a producer with every send in flight, failing brokers and a backlog an outage left hold up no write. The pace is
 * the test's: the outbox hands out the pages it is told, one claim at a time, and the producer (Kafka's own
 * {@link MockProducer}) answers only when the test says so.
 */
class WritesWaitForTheTopicTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(10);
    private static final KafkaSink SINK = KafkaSink.to("127.0.0.1:9", "plants");

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    private final Semaphore claimsAllowed = new Semaphore(0);
    private final AtomicInteger claims = new AtomicInteger();
    /** Claims begun, the last perhaps still waiting: one more than {@link #claims} once a turn's decision is made. */
    private final AtomicInteger claimsBegun = new AtomicInteger();
    private volatile int pageSize;
    private volatile long recordedAgoMillis;
    private TopicWorker worker;

    @AfterEach
    void stop() {
        if (worker != null) {
            pageSize = 0;
            claimsAllowed.release(1_000);
            worker.stop();
            worker.awaitStopped();
        }
    }

    @Test
    void writesWaitWhileAClaimFindsAFullPageOfRecentEventsAndGoOnceAClaimFindsLess() throws InterruptedException {
        start(TopicWorker.PAGE, 0);
        claimsAllowed.release();
        assertTrue(Poll.until(WAIT, LOOK, () -> claimsBegun.get() == 2 && worker.pacing().holdsWrites()),
                "a full page held the writes");
        pageSize = TopicWorker.PAGE - 1;
        claimsAllowed.release();
        assertTrue(Poll.until(WAIT, LOOK, () -> claims.get() == 2 && !worker.pacing().holdsWrites()),
                "a claim short of a page let the writes go");
    }

    @Test
    void aHeldWriteWaitsTheLongestWaitAndThenGoes() throws InterruptedException {
        start(TopicWorker.PAGE, 0);
        claimsAllowed.release();
        assertTrue(Poll.until(WAIT, LOOK, () -> worker.pacing().holdsWrites()), "a full page held the writes");
        long started = System.nanoTime();
        WritePacing.awaitEach(List.of(worker.pacing()));
        long waitedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertTrue(waitedMillis >= WritePacing.LONGEST_WRITE_WAIT.toMillis() - 1
                && waitedMillis < WAIT.toMillis(), "waited " + waitedMillis + " ms");
    }

    @Test
    void aProducerWithEverySendInFlightHoldsUpNoWrite() throws InterruptedException {
        start(TopicWorker.PAGE, 0);
        claimsAllowed.release(TopicWorker.IN_FLIGHT / TopicWorker.PAGE + 1);
        assertTrue(Poll.until(WAIT, LOOK, () -> producer.history().size() == TopicWorker.IN_FLIGHT
                && !worker.pacing().holdsWrites()), "with every send in flight, the writes went");
        assertEquals(TopicWorker.IN_FLIGHT / TopicWorker.PAGE, claims.get(), "no claim past the sends in flight");
    }

    @Test
    void aBacklogOlderThanTenSecondsHoldsUpNoWrite() throws InterruptedException {
        start(TopicWorker.PAGE, WritePacing.HOLDS_WRITES_WITHIN.toMillis() + 1_000);
        claimsAllowed.release();
        assertTrue(Poll.until(WAIT, LOOK, () -> claimsBegun.get() == 2 && claims.get() == 1), "a page was claimed");
        assertFalse(worker.pacing().holdsWrites(), "a full page of events recorded over ten seconds ago held writes");
        recordedAgoMillis = 0;
        claimsAllowed.release();
        assertTrue(Poll.until(WAIT, LOOK, () -> claims.get() == 2 && worker.pacing().holdsWrites()),
                "a page of recent events held the writes");
        assertEquals(2 * TopicWorker.PAGE, producer.history().size(), "both pages sent");
    }

    @Test
    void failingBrokersHoldUpNoWrite() throws InterruptedException {
        start(TopicWorker.PAGE, 0);
        claimsAllowed.release();
        assertTrue(Poll.until(WAIT, LOOK, () -> producer.history().size() == TopicWorker.PAGE
                && worker.pacing().holdsWrites()), "a full page held the writes");
        while (producer.errorNext(new NetworkException("the broker went away"))) {
            // Each send of the page fails, as it would with the brokers gone.
        }
        claimsAllowed.release(1_000);
        assertTrue(Poll.until(WAIT, LOOK, () -> !worker.pacing().holdsWrites()),
                "with the brokers failing, the writes went though claims still found full pages");
    }

    private void start(int eventsPerClaim, long agoMillis) {
        pageSize = eventsPerClaim;
        recordedAgoMillis = agoMillis;
        String key = DeliverySettings.receiverKey(SINK.target());
        var retries = new RetryPolicy(DeliverySettings.FIRST_RETRY, SINK.retryPeriod());
        worker = new TopicWorker(SINK, new PagedOutbox(), producer, new BrokerHealth(key, SINK, retries, () -> {
            throw new AssertionError("the test's brokers are never looked at");
        }));
        worker.start();
    }

    /** An outbox whose claims wait for the test's leave, each then finding the page the test set. */
    private final class PagedOutbox implements Outbox, Backlogs {

        private final CommittedEvents committed = new CommittedEvents();
        private long seq;

        @Override
        public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
            claimsBegun.incrementAndGet();
            try {
                claimsAllowed.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
            List<PlantEvent> claimed = new ArrayList<>();
            long recordedAt = nowMillis - recordedAgoMillis;
            for (int i = 0; i < Math.min(max, pageSize); i++) {
                seq++;
                claimed.add(new PlantEvent(seq, receiver, seq, PlantEvent.CREATED, new Plant("Fern", null),
                        recordedAt, 0, nowMillis + LEASE.toMillis(), recordedAt, Optional.empty()));
            }
            claims.incrementAndGet();
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
            return new Backlog(0, 0);
        }

        @Override
        public Optional<Backlog> withoutScan(String receiver) {
            return Optional.empty();
        }

        @Override
        public long oldestRecordedAt(String receiver) {
            return 0;
        }
    }
}
