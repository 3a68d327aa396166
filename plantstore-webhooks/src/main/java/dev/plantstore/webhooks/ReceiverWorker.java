package dev.plantstore.webhooks;

import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends one receiver's events, on a thread of its own, in the {@link ReceiverState} the receiver's answers put it in.
 *
 * <p>Events reach the worker two ways. The events a batch of this process recorded and leased to it arrive in memory
 * as soon as the batch has committed, and are sent at once; their rows stay the durable record. Every other event
 * (recorded by another instance, left by a restart, due for a retry, or recorded while the worker was not taking
 * events in memory) is claimed from the outbox, each the earliest pending one of its plant id, so that the events of an
 * id arrive in order while other ids go ahead. An event is recorded leased only when no earlier event of its plant is
 * pending, so the two ways never reorder a plant's events.
 *
 * <p>At most {@value WebhookDelivery#IN_FLIGHT} requests are in flight. A complete 2xx answer to an event's own request
 * delivers it; delivered events leave the outbox in batches. Anything else, and anything an attempt throws, keeps the
 * event for a retry as {@link RetryPolicy} says, and gives its request back.
 */
final class ReceiverWorker {

    private static final System.Logger LOG = System.getLogger(ReceiverWorker.class.getName());

    /** Events recorded by this process that wait in memory, at most. */
    static final int WAITING_IN_MEMORY = 8_192;
    /**
     * An event that waited in memory longer than this shows the worker is behind: the receiver's events then go
     * through the table, oldest first, until the worker has caught up.
     */
    private static final Duration LONGEST_WAIT_IN_MEMORY = Duration.ofSeconds(5);
    /** How often an idle worker looks for events that another instance recorded, or whose retry fell due. */
    private static final Duration IDLE_LOOK = Duration.ofSeconds(1);
    private static final Duration OLDEST_EVERY = Duration.ofSeconds(1);
    private static final Duration COUNT_EVERY = Duration.ofSeconds(5);
    private static final Duration DELETE_EVERY = Duration.ofMillis(100);
    private static final int DELETE_BATCH = 1_024;
    private static final int IN_FLIGHT = WebhookDelivery.IN_FLIGHT;

    private final URI receiver;
    private final String key;
    /** The receiver's URL as releases before schema version 2 filed its events, when that is not its key. */
    private final Optional<String> fullUrl;
    private final Outbox outbox;
    /** Where the worker says whether the store may lease the receiver's events to this process. */
    private final CommittedEvents committed;
    private final Transport transport;
    private final WebhookSigner signer;
    private final AttemptSpans spans;
    private final RetryPolicy retries;
    private final WebhookListener listener;
    private final WritePacing pacing = new WritePacing();
    private final Thread thread;
    /** Events this process recorded and leased, in the order their batches committed. */
    private final Queue<PlantEvent> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final Queue<Attempt> ended = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<PlantEvent> deliveredNotYetRemoved = new ArrayList<>();
    private volatile ReceiverState state = ReceiverState.KEEPING_UP;
    /** True while the outbox may hold claimable events: at start, and after others were recorded. */
    private volatile boolean claimWanted = true;
    private volatile boolean stopped;
    private long nextLookMillis;
    private long lastRemovalNanos = System.nanoTime();
    /** Rounds in a row in which every attempt failed; 0 unless {@link ReceiverState#FAILING}. */
    private int failingRounds;
    private long failedAttempts;
    private String lastReason;
    private long nextProbeMillis;
    private long nextOldestNanos = System.nanoTime();
    private long nextCountNanos = System.nanoTime();
    private long pendingCount;
    /** When the oldest pending event was recorded, as {@link #reportBacklog} last read it; 0 for none. */
    private long oldestPendingMillis;

    /** What one attempt came to, when it ended; {@code reason} says why it failed, never with the answer's body. */
    private record Attempt(PlantEvent event, boolean delivered, String reason, long endedAtMillis) {
    }

    ReceiverWorker(URI receiver, Outbox outbox, CommittedEvents committed, Transport transport, WebhookSigner signer,
                   RetryPolicy retries, WebhookListener listener, OpenTelemetry openTelemetry) {
        this.receiver = receiver;
        this.key = DeliverySettings.receiverKey(receiver);
        this.spans = new AttemptSpans(openTelemetry, receiver, key);
        this.fullUrl = receiver.toString().equals(key) ? Optional.empty() : Optional.of(receiver.toString());
        this.outbox = outbox;
        this.committed = committed;
        this.transport = transport;
        this.signer = signer;
        this.retries = retries;
        this.listener = listener;
        this.thread = new Thread(this::run, "plantstore-webhook " + key);
        thread.setDaemon(true);
    }

    void start() {
        updateLeasing();
        thread.start();
    }

    WritePacing pacing() {
        return pacing;
    }

    /**
     * Tells the store whether the receiver's next events may be leased to this process, to be sent from memory: while
     * the worker keeps up and has room for them. Told on each change; a batch already under way may still lease a few.
     */
    private void updateLeasing() {
        committed.leaseHere(key, !stopped && state == ReceiverState.KEEPING_UP
                && waitingCount.get() < WAITING_IN_MEMORY);
    }

    /** An event this process recorded and leased to this worker, to send from memory. */
    void take(PlantEvent event) {
        waiting.add(event);
        if (waitingCount.incrementAndGet() == WAITING_IN_MEMORY) {
            updateLeasing();
        }
    }

    /** A batch committed; {@code othersRecorded} when it left events to a claim. */
    void wake(boolean othersRecorded) {
        if (othersRecorded) {
            claimWanted = true;
        }
        LockSupport.unpark(thread);
    }

    void stop() {
        stopped = true;
        updateLeasing();
        thread.interrupt();
    }

    /** Waits a moment for the worker's last turn, then closes its connections; events not answered stay leased. */
    void awaitStopped() {
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            transport.close();
        }
    }

    /** Until stopped: whatever a turn throws (the outbox failing, the database down) is logged once and waited out. */
    private void run() {
        int turnFailures = 0;
        while (!stopped) {
            try {
                long waitMillis = doRun();
                updateLeasing();
                if (turnFailures > 0) {
                    LOG.log(System.Logger.Level.INFO, "webhooks to " + key + ": the outbox answers again");
                }
                turnFailures = 0;
                pause(waitMillis);
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException | Error e) {
                turnFailures++;
                if (turnFailures == 1) {
                    LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": the outbox failed: "
                            + JettyTransport.describe(e)
                            + (e.getCause() == null ? "" : " (" + JettyTransport.describe(e.getCause()) + ")"));
                }
                try {
                    pause(retries.backoffMillis(turnFailures));
                } catch (InterruptedException interrupted) {
                    break;
                }
            }
        }
        finish();
    }

    /** What a graceful stop can still do: record what was delivered, and free the events not yet sent. */
    private void finish() {
        pacing.letWritesGo();
        try {
            settle(System.currentTimeMillis());
            removeDelivered();
            releaseWaiting();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": at stop, the outbox failed: "
                    + e.getMessage());
        }
    }

    private void pause(long millis) throws InterruptedException {
        if (millis > 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
        }
        if (Thread.interrupted() || stopped) {
            throw new InterruptedException();
        }
    }

    /** One turn: records what ended, then sends what it can; returns how long to wait for more to do. */
    private long doRun() {
        long now = System.currentTimeMillis();
        settle(now);
        reportBacklog(now);
        if (state == ReceiverState.FAILING) {
            return probe(now);
        }
        if (state == ReceiverState.CATCHING_UP) {
            releaseWaiting();
        }
        int free = IN_FLIGHT - inFlight.get();
        // A claim costs a statement whatever it takes: it waits until half the requests are free, or all.
        if ((free >= IN_FLIGHT / 2 || free == IN_FLIGHT) && (claimWanted || now >= nextLookMillis)) {
            free -= claim(now, free);
        }
        while (state == ReceiverState.KEEPING_UP && free > 0) {
            PlantEvent event = waiting.poll();
            if (event == null) {
                break;
            }
            waitingCount.decrementAndGet();
            if (now - event.recordedAtMillis() > LONGEST_WAIT_IN_MEMORY.toMillis()
                    || waitingCount.get() >= WAITING_IN_MEMORY) {
                fallBehind(event);
                break;
            }
            send(event);
            free--;
        }
        Outbox.Backlog unsent = outbox.backlogWithoutScan(key).orElseGet(this::unsentOfThisProcess);
        pacing.decide(unsent.pending(), unsent.oldestRecordedAtMillis(), now,
                state == ReceiverState.FAILING || inFlight.get() >= IN_FLIGHT);
        if (free >= IN_FLIGHT / 2 && claimWanted) {
            return 0;
        }
        return Math.max(1, Math.min(DELETE_EVERY.toMillis(), nextLookMillis - now));
    }

    /**
     * The events of a database store not yet sent: those waiting in memory or, once the worker fell behind and
     * takes them from the table, more than the pacing's room since the oldest pending one (as last read).
     */
    private Outbox.Backlog unsentOfThisProcess() {
        if (state != ReceiverState.KEEPING_UP) {
            return new Outbox.Backlog(oldestPendingMillis == 0 ? 0 : WritePacing.ROOM + 1L, oldestPendingMillis);
        }
        PlantEvent oldest = waiting.peek();
        return new Outbox.Backlog(waitingCount.get(), oldest == null ? 0 : oldest.recordedAtMillis());
    }

    /** Claims up to {@code max} events and sends them; returns how many. */
    private int claim(long now, int max) {
        removeDelivered();
        claimWanted = false;
        if (now >= nextLookMillis) {
            // An instance of an earlier release may still file events under the URL, until a rolling upgrade ends.
            fullUrl.ifPresent(url -> outbox.refile(url, key));
        }
        nextLookMillis = now + IDLE_LOOK.toMillis();
        List<PlantEvent> page = outbox.claim(key, now, max);
        page.forEach(this::send);
        if (page.size() == max) {
            claimWanted = true;
        } else if (state == ReceiverState.CATCHING_UP && waiting.isEmpty()) {
            state = ReceiverState.KEEPING_UP;
        }
        return page.size();
    }

    /**
     * The worker is behind what this process records: from now on the receiver's events are recorded for a claim,
     * and those waiting in memory are freed to be claimed too, oldest first, until the worker has caught up.
     */
    private void fallBehind(PlantEvent oldestWaiting) {
        state = ReceiverState.CATCHING_UP;
        claimWanted = true;
        List<PlantEvent> freed = new ArrayList<>();
        freed.add(oldestWaiting);
        drainWaitingInto(freed);
        outbox.reschedule(freed, 0, false);
    }

    private void releaseWaiting() {
        List<PlantEvent> freed = new ArrayList<>();
        drainWaitingInto(freed);
        if (!freed.isEmpty()) {
            outbox.reschedule(freed, 0, false);
        }
    }

    private void drainWaitingInto(List<PlantEvent> events) {
        PlantEvent event;
        while ((event = waiting.poll()) != null) {
            waitingCount.decrementAndGet();
            events.add(event);
        }
    }

    /** While the receiver fails: one event at a time, each after the back-off. */
    private long probe(long now) {
        pacing.letWritesGo();
        releaseWaiting();
        if (inFlight.get() > 0) {
            return IDLE_LOOK.toMillis();
        }
        if (now < nextProbeMillis) {
            return nextProbeMillis - now;
        }
        removeDelivered();
        List<PlantEvent> one = outbox.claim(key, now, 1);
        if (one.isEmpty()) {
            nextProbeMillis = now + retries.backoffMillis(failingRounds);
            return nextProbeMillis - now;
        }
        send(one.get(0));
        return IDLE_LOOK.toMillis();
    }

    /**
     * One attempt. Whatever it throws, here or on the transport's thread, fails it, and its request in flight is given
     * back exactly once.
     */
    private void send(PlantEvent event) {
        inFlight.incrementAndGet();
        AttemptSpans.Attempt attempt = spans.begin(event);
        var once = new AtomicBoolean();
        Transport.Ended end = (sent, outcome) -> {
            if (once.compareAndSet(false, true)) {
                try {
                    AttemptSpans.end(attempt.span(), outcome);
                } finally {
                    attemptEnded(sent, outcome);
                }
            }
        };
        try {
            transport.send(event, signer.request(event, attempt.sent()), end);
        } catch (RuntimeException | Error e) {
            end.ended(event, new Transport.Outcome.Failed(JettyTransport.describe(e)));
        }
    }

    /** On the transport's thread: hands the outcome to the worker's next turn. */
    private void attemptEnded(PlantEvent event, Transport.Outcome outcome) {
        long endedAt = System.currentTimeMillis();
        if (outcome instanceof Transport.Outcome.Answered answered) {
            int status = answered.status();
            ended.add(new Attempt(event, status >= 200 && status < 300, "HTTP " + status, endedAt));
        } else if (outcome instanceof Transport.Outcome.Failed failed) {
            ended.add(new Attempt(event, false, failed.reason(), endedAt));
        }
        inFlight.decrementAndGet();
        LockSupport.unpark(thread);
    }

    /** Takes in the attempts that ended since the last turn. */
    private void settle(long now) {
        int delivered = 0;
        List<Attempt> failed = new ArrayList<>();
        Attempt attempt;
        while ((attempt = ended.poll()) != null) {
            if (attempt.delivered()) {
                delivered++;
                deliveredNotYetRemoved.add(attempt.event());
                tell(WebhookListener.Outcome.DELIVERED);
                tellLatency(attempt.endedAtMillis() - attempt.event().recordedAtMillis());
            } else {
                failed.add(attempt);
            }
        }
        for (Attempt failure : failed) {
            retryOrGiveUp(failure, now);
        }
        if (deliveredNotYetRemoved.size() >= DELETE_BATCH
                || System.nanoTime() - lastRemovalNanos >= DELETE_EVERY.toNanos()) {
            removeDelivered();
        }
        if (delivered > 0 || !failed.isEmpty()) {
            noteRound(delivered, failed, now);
        }
    }

    /**
     * Delivered events leave the outbox many at a time, and before a claim; then the events of their plants that
     * waited behind them may go, so the next turn claims.
     */
    private void removeDelivered() {
        lastRemovalNanos = System.nanoTime();
        if (deliveredNotYetRemoved.isEmpty()) {
            return;
        }
        outbox.delivered(deliveredNotYetRemoved);
        deliveredNotYetRemoved.clear();
        claimWanted = true;
    }

    private void retryOrGiveUp(Attempt attempt, long now) {
        PlantEvent event = attempt.event();
        if (retries.givesUp(event.retryFromMillis(), now)) {
            outbox.giveUp(List.of(event));
            tell(WebhookListener.Outcome.UNDELIVERABLE);
            LOG.log(System.Logger.Level.ERROR, "webhooks to " + key + ": event " + WebhookSigner.messageId(event) + " ("
                    + event.type() + " of plant " + event.plantId() + ") is undeliverable after "
                    + (event.attempts() + 1) + " attempts over " + retries.retryPeriod()
                    + " (last: " + attempt.reason() + "); it is kept in the outbox, no longer retried");
        } else {
            outbox.reschedule(List.of(event), now + retries.backoffMillis(event.attempts() + 1), true);
            tell(WebhookListener.Outcome.FAILED);
        }
    }

    /** Logs a change of the receiver's state, and a summary every so often while it lasts, never each attempt. */
    private void noteRound(int delivered, List<Attempt> failed, long now) {
        failedAttempts += failed.size();
        if (!failed.isEmpty()) {
            lastReason = failed.get(failed.size() - 1).reason();
        }
        if (delivered > 0) {
            if (state == ReceiverState.FAILING) {
                LOG.log(System.Logger.Level.INFO, "webhooks to " + key + ": recovered after "
                        + failedAttempts + " failed attempts");
                state = ReceiverState.CATCHING_UP;
                claimWanted = true;
            }
            failingRounds = 0;
            failedAttempts = 0;
            return;
        }
        // The other requests of a page that fails end one by one: together they are one failed round.
        if (failingRounds == 0 || inFlight.get() == 0) {
            failingRounds++;
        }
        state = ReceiverState.FAILING;
        nextProbeMillis = now + retries.backoffMillis(failingRounds);
        if (failingRounds == 1 && failedAttempts == failed.size()) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": failing (" + lastReason
                    + "); retrying with back-off");
        } else if (failingRounds > 1 && Integer.bitCount(failingRounds) == 1 && inFlight.get() == 0) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": still failing, " + failedAttempts
                    + " failed attempts so far (last: " + lastReason + ")");
        }
    }

    /** The oldest event's age every second; the count, which costs a scan, every few seconds. */
    private void reportBacklog(long now) {
        long nanos = System.nanoTime();
        if (nanos - nextOldestNanos < 0) {
            return;
        }
        nextOldestNanos = nanos + OLDEST_EVERY.toNanos();
        long oldest = outbox.oldestRecordedAt(key);
        oldestPendingMillis = oldest;
        if (oldest == 0) {
            pendingCount = 0;
        } else if (nanos - nextCountNanos >= 0) {
            nextCountNanos = nanos + COUNT_EVERY.toNanos();
            pendingCount = outbox.backlog(key).pending();
        }
        long age = oldest == 0 ? 0 : Math.max(0, now - oldest);
        try {
            listener.backlog(receiver, pendingCount, age);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
        }
    }

    private void tell(WebhookListener.Outcome outcome) {
        try {
            listener.attempted(receiver, outcome);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
        }
    }

    private void tellLatency(long millis) {
        try {
            listener.delivered(receiver, Duration.ofMillis(Math.max(0, millis)));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
        }
    }
}
