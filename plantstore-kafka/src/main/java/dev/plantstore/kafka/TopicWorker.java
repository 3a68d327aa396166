package dev.plantstore.kafka;

import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.threads.DaemonThreads;
import dev.plantstore.core.webhooks.DeliveredEvents;
import dev.plantstore.core.webhooks.DeliveryLoop;
import dev.plantstore.core.webhooks.DeliveryReport;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WritePacing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.InterruptException;

/**
 * Sends one sink's events to its topic, on a thread of its own, turn by turn: it settles the sends the producer
 * answered (delivered events leave the outbox in batches, {@link DeliveredEvents}; failed ones are due again after the
 * back-off, or given up on past the retry period), then claims the next page of due events from the outbox, at most
 * every {@link #CLAIM_EVERY} unless the last page was full, and hands each to the producer, which batches them. One
 * plant's next event is claimed only once its last is settled, so each plant's events reach the topic in the order of
 * their writes. While the brokers refuse or cannot be reached ({@link BrokerHealth}), one event
 * at a time goes, each after the back-off. Writes wait ({@link WritePacing}) while a claim finds a full page of recent
 * events and the producer has a page of sends to spare: the outbox is counted without a scan, by its claims.
 */
final class TopicWorker {

    /** Events claimed at once: one statement each way per page, and a page that the producer batches. */
    static final int PAGE = 500;
    /** Sends unanswered at most: a few pages, enough to keep the producer's batches full. */
    static final int IN_FLIGHT = 4 * PAGE;
    /**
     * After a claim that found less than a page, how long the next waits: each claim costs the store a statement
     * whatever it finds, and commits and answers would otherwise each bring one.
     */
    static final Duration CLAIM_EVERY = Duration.ofMillis(50);
    /** How often the outbox is looked at with nothing committed here meanwhile (other instances, retries due). */
    static final Duration IDLE_LOOK = Duration.ofSeconds(1);
    /** How long a stop waits for the sends under way to be answered, so that their events are settled. */
    static final Duration STOP_FLUSH = Duration.ofSeconds(5);

    private static final System.Logger LOG = BrokerHealth.LOG;

    /** What became of one send, as the producer told it. */
    private record Sent(PlantEvent event, Exception failure, long endedAtMillis) {
    }

    private final String key;
    private final Outbox outbox;
    private final Producer<String, byte[]> producer;
    private final EventRecords records;
    private final RetryPolicy retries;
    private final DeliveryReport report;
    private final BrokerHealth health;
    private final Queue<Sent> ended = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final WritePacing pacing = new WritePacing(PAGE - 1);
    private final DeliveredEvents delivered;
    private final Thread thread;
    private volatile boolean stopped;
    private long nextClaimMillis;

    TopicWorker(KafkaSink sink, Outbox outbox, Producer<String, byte[]> producer, BrokerHealth health) {
        this.key = DeliverySettings.receiverKey(sink.target());
        this.outbox = outbox;
        this.delivered = new DeliveredEvents(outbox);
        this.producer = producer;
        this.records = new EventRecords(sink.topic());
        this.retries = new RetryPolicy(DeliverySettings.FIRST_RETRY, sink.retryPeriod());
        this.report = new DeliveryReport(sink.target(), key, outbox.backlogs(), sink.listener());
        this.health = health;
        this.thread = DaemonThreads.named("plantstore-kafka " + key).newThread(this::run);
    }

    WritePacing pacing() {
        return pacing;
    }

    void start() {
        outbox.committed().subscribe((leased, othersRecorded) -> {
            if (othersRecorded) {
                LockSupport.unpark(thread);
            }
        });
        thread.start();
    }

    /**
     * Ends the worker's loop at its next look, and its last sends follow. Woken, not interrupted: an interrupt would
     * cut a claim short in the store, its events leased and left until the lease runs out.
     */
    void stop() {
        stopped = true;
        pacing.letWritesGo();
        LockSupport.unpark(thread);
    }

    void awaitStopped() {
        try {
            thread.join(STOP_FLUSH.toMillis() + 2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            // Brokers down or a topic missing are told at start, before any event waits for them.
            health.check(producer, System.currentTimeMillis());
        } catch (InterruptException e) {
            // Stopped while looking: the stop's last sends follow.
        }
        new DeliveryLoop("kafka to " + key, retries, LOG, BrokerHealth::describeLocally).run(() -> {
            try {
                return turn(System.currentTimeMillis());
            } catch (InterruptException e) {
                throw new InterruptedException();
            } catch (RuntimeException e) {
                // Until the loop's next turn after the back-off, the writes go at their own rate.
                pacing.letWritesGo();
                throw e;
            }
        }, () -> stopped);
        finish();
    }

    /**
     * What a stop can still do: for up to {@link #STOP_FLUSH}, unless the brokers fail, send what is due, page after
     * page (a plant's next event goes once its last is acknowledged), then record which sends were delivered. So a
     * store closed right after its writes has sent them.
     */
    private void finish() {
        Thread.interrupted();
        long deadline = System.nanoTime() + STOP_FLUSH.toNanos();
        try {
            while (!health.failing() && System.nanoTime() - deadline < 0) {
                long now = System.currentTimeMillis();
                settle(now);
                delivered.removeNow();
                List<PlantEvent> page = outbox.claim(key, now, PAGE);
                if (page.isEmpty() && inFlight.get() == 0) {
                    break;
                }
                page.forEach(this::send);
                // Until every send is answered, its callback run: the next page holds the plants' next events.
                producer.flush();
            }
            producer.close(STOP_FLUSH);
            settle(System.currentTimeMillis());
            delivered.removeNow();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "kafka to " + key + ": at stop, the outbox failed: "
                    + BrokerHealth.describeLocally(e));
        }
    }

    /** One turn: records what ended, then sends what it can; returns how long to wait for more to do. */
    private long turn(long now) {
        settle(now);
        report.backlog(now);
        if (health.failing()) {
            pacing.letWritesGo();
            return probe(now);
        }
        int free = IN_FLIGHT - inFlight.get();
        if (free < PAGE) {
            // The brokers are the limit: the writes go at their own rate, and the topic catches up from the outbox.
            pacing.letWritesGo();
            return IDLE_LOOK.toMillis();
        }
        if (now < nextClaimMillis) {
            return nextClaimMillis - now;
        }
        delivered.removeNow();
        List<PlantEvent> page = outbox.claim(key, now, PAGE);
        page.forEach(this::send);
        // A claim returns the events in the order they were recorded: the first is the oldest.
        pacing.decide(page.size(), page.isEmpty() ? now : page.get(0).recordedAtMillis(), now, false);
        boolean full = page.size() == PAGE;
        nextClaimMillis = full ? now : now + CLAIM_EVERY.toMillis();
        return full ? 0 : IDLE_LOOK.toMillis();
    }

    /** While the brokers fail: one event at a time, each after the back-off; with none, a look at the topic. */
    private long probe(long now) {
        if (inFlight.get() > 0) {
            return IDLE_LOOK.toMillis();
        }
        if (now < health.nextProbeMillis()) {
            return health.nextProbeMillis() - now;
        }
        delivered.removeNow();
        List<PlantEvent> one = outbox.claim(key, now, 1);
        if (one.isEmpty()) {
            health.check(producer, now);
        } else {
            send(one.get(0));
        }
        return IDLE_LOOK.toMillis();
    }

    private void send(PlantEvent event) {
        inFlight.incrementAndGet();
        try {
            producer.send(records.record(event), (metadata, failure) -> {
                ended.add(new Sent(event, failure, System.currentTimeMillis()));
                inFlight.decrementAndGet();
                LockSupport.unpark(thread);
            });
        } catch (InterruptException e) {
            inFlight.decrementAndGet();
            outbox.reschedule(List.of(event), System.currentTimeMillis(), false);
            throw e;
        } catch (RuntimeException e) {
            // What the producer refuses before sending (a record over its size limit, a producer closed) fails the
            // event as an answer would.
            ended.add(new Sent(event, e, System.currentTimeMillis()));
            inFlight.decrementAndGet();
        }
    }

    /** Takes in the sends answered since the last turn. */
    private void settle(long now) {
        boolean anyDelivered = false;
        List<Sent> failed = new ArrayList<>();
        Sent sent;
        while ((sent = ended.poll()) != null) {
            if (sent.failure() == null) {
                anyDelivered = true;
                delivered.add(sent.event());
                report.attempted(WebhookListener.Outcome.DELIVERED);
                report.delivered(sent.endedAtMillis() - sent.event().recordedAtMillis());
            } else {
                failed.add(sent);
            }
        }
        delivered.removeWhenDue();
        if (anyDelivered) {
            health.delivered();
        }
        if (!failed.isEmpty()) {
            retryOrGiveUp(failed, now);
            List<Sent> brokerFailures = new ArrayList<>();
            for (Sent failure : failed) {
                if (BrokerFaults.refusesTheRecord(failure.failure())) {
                    health.refused(failure.event(), failure.failure());
                } else {
                    brokerFailures.add(failure);
                }
            }
            if (!brokerFailures.isEmpty()) {
                health.failed(brokerFailures.size(), brokerFailures.get(0).failure(), now);
            }
        }
    }

    /**
     * Failed events are due again after the back-off of their attempts, those of a page together; an event past its
     * retry period is given up on, and logged.
     */
    private void retryOrGiveUp(List<Sent> failed, long now) {
        Map<Integer, List<PlantEvent>> byAttempts = new TreeMap<>();
        List<PlantEvent> givenUp = new ArrayList<>();
        for (Sent sent : failed) {
            PlantEvent event = sent.event();
            if (retries.givesUp(event.retryFromMillis(), now)) {
                givenUp.add(event);
                LOG.log(System.Logger.Level.ERROR, "kafka to " + key + ": event " + event.messageId() + " ("
                        + event.type() + " of plant " + event.plantId() + ") is undeliverable after "
                        + (event.attempts() + 1) + " attempts over " + retries.retryPeriod() + " (last: "
                        + BrokerHealth.describeLocally(sent.failure()) + "); it is no longer retried");
                report.attempted(WebhookListener.Outcome.UNDELIVERABLE);
            } else {
                byAttempts.computeIfAbsent(event.attempts() + 1, attempts -> new ArrayList<>()).add(event);
                report.attempted(WebhookListener.Outcome.FAILED);
            }
        }
        if (!givenUp.isEmpty()) {
            outbox.giveUp(givenUp);
        }
        byAttempts.forEach((attempts, events) ->
                outbox.reschedule(events, now + retries.backoffMillis(attempts), true));
    }
}
