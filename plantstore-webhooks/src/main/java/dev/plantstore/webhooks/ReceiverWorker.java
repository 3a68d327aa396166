package dev.plantstore.webhooks;

import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.threads.DaemonThreads;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.DeliveredEvents;
import dev.plantstore.core.webhooks.DeliveryLoop;
import dev.plantstore.core.webhooks.DeliveryReport;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WritePacing;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Delivers one receiver's events, on a thread of its own, turn by turn: it settles the attempts that ended
 * ({@link Settlement}), takes what {@link ReceiverFeed} has, sends it through the {@link Dispatcher}, and decides
 * whether writes wait for it ({@link WritePacing}). The receiver's answers set its {@link ReceiverHealth}: while it
 * fails, one event at a time goes, each after the back-off. A receiver's {@link RateCeiling} sits in front of every
 * send. Somewhat over 200 lines: the thread's loop, its turn and
 * the probe of a failing receiver read best together, as the order in which a turn decides.
 */
final class ReceiverWorker {

    private static final System.Logger LOG = ReceiverHealth.LOG;

    private final String key;
    private final CommittedEvents committed;
    private final Backlogs backlogs;
    private final RetryPolicy retries;
    private final ReceiverFeed feed;
    private final ReceiverHealth health;
    private final DeliveryReport report;
    private final Settlement settlement;
    private final Dispatcher dispatcher;
    private final WritePacing pacing = new WritePacing(DeliveryLimits.UNSENT_ROOM);
    private final Optional<RateCeiling> ceiling;
    /** Requests that may be in flight at once: the bound, or the ceiling's requests a second if lower. */
    private final int room;
    private final Outbox outbox;
    private final Thread thread;
    private volatile boolean stopped;
    /** When the worker next asks the outbox whether the receiver is turned off, which another instance may decide. */
    private long nextOffCheckMillis;
    private boolean offReported;

    ReceiverWorker(URI receiver, Outbox outbox, Transport transport, WebhookSigner signer,
                   RetryPolicy retries, WebhookListener listener, OpenTelemetry openTelemetry) {
        this.key = DeliverySettings.receiverKey(receiver);
        this.ceiling = RateCeiling.of(receiver);
        this.room = Math.min(DeliveryLimits.IN_FLIGHT, ceiling.map(RateCeiling::perSecond).orElse(Integer.MAX_VALUE));
        this.outbox = outbox;
        this.committed = outbox.committed();
        this.backlogs = outbox.backlogs();
        this.retries = retries;
        this.feed = new ReceiverFeed(key, outbox);
        this.health = new ReceiverHealth(key, retries);
        this.report = new DeliveryReport(receiver, key, backlogs, listener);
        this.settlement = new Settlement(key, outbox, retries, feed, health, report, ceiling);
        this.thread = DaemonThreads.named("plantstore-webhook " + key).newThread(this::run);
        this.dispatcher = new Dispatcher(transport, signer, new AttemptSpans(openTelemetry, receiver, key),
                () -> LockSupport.unpark(thread));
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
     * the worker keeps up and has room for them. Told on each turn; a batch already under way may still lease a few.
     */
    private void updateLeasing() {
        committed.leaseHere(key,
                !stopped && health.state() == ReceiverHealth.State.KEEPING_UP && feed.hasRoomInMemory());
    }

    /** An event this process recorded and leased to this worker, to send from memory. */
    void take(PlantEvent event) {
        if (!feed.take(event)) {
            updateLeasing();
        }
    }

    /** A batch committed; {@code othersRecorded} when it left events to a claim. */
    void wake(boolean othersRecorded) {
        if (othersRecorded) {
            feed.othersRecorded();
        }
        LockSupport.unpark(thread);
    }

    void stop() {
        stopped = true;
        updateLeasing();
        thread.interrupt();
    }

    /**
     * Waits a moment for the worker's last turn, then closes its transport; events not answered stay leased, and
     * their connections close with the delivery's client.
     */
    void awaitStopped() {
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            dispatcher.close();
        }
    }

    private void run() {
        new DeliveryLoop("webhooks to " + key, retries, LOG, ReceiverHealth::describe).run(() -> {
            long waitMillis = turn();
            updateLeasing();
            return waitMillis;
        }, () -> stopped);
        finish();
    }

    /** What a graceful stop can still do: record what was delivered, and free the events not yet sent. */
    private void finish() {
        pacing.letWritesGo();
        try {
            settlement.settle(dispatcher, System.currentTimeMillis());
            feed.removeDelivered();
            feed.releaseWaiting();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": at stop, the outbox failed: "
                    + e.getMessage());
        }
    }

    /** One turn: records what ended, then sends what it can; returns how long to wait for more to do. */
    private long turn() {
        long now = System.currentTimeMillis();
        settlement.settle(dispatcher, now);
        report.backlog(now);
        if (now >= nextOffCheckMillis) {
            checkTurnedOff(now);
        }
        if (health.state() == ReceiverHealth.State.TURNED_OFF) {
            // Whatever a batch leased here meanwhile was given up on with the receiver.
            pacing.letWritesGo();
            feed.dropWaiting();
            return Math.max(1, nextOffCheckMillis - now);
        }
        if (now < health.notBeforeMillis()) {
            // The receiver asked to be left alone (Retry-After): nothing goes to it, and no write waits for it.
            pacing.letWritesGo();
            feed.releaseWaiting();
            return health.notBeforeMillis() - now;
        }
        if (health.state() == ReceiverHealth.State.FAILING) {
            return probe(now);
        }
        if (health.state() == ReceiverHealth.State.CATCHING_UP) {
            feed.releaseWaiting();
        }
        int free = free();
        // A claim costs a statement whatever it takes: it waits until half the requests are free, or all.
        if (free > 0 && (free >= room / 2 || dispatcher.idle()) && feed.claimDue(now)) {
            List<PlantEvent> page = feed.claim(now, free);
            page.forEach(this::send);
            if (page.size() < free && feed.nothingInMemory()) {
                health.caughtUp();
            }
            free -= page.size();
        }
        while (health.state() == ReceiverHealth.State.KEEPING_UP && free > 0) {
            PlantEvent event = feed.nextInMemory(now, health);
            if (event == null) {
                break;
            }
            send(event);
            free--;
        }
        Backlogs.Backlog unsent = backlogs.withoutScan(key)
                .orElseGet(() -> feed.unsentOfThisProcess(health.state(), report.oldestPendingMillis()));
        // A receiver at its ceiling is paced as one with every request in flight: writes do not wait for it.
        pacing.decide(unsent.pending(), unsent.oldestRecordedAtMillis(), now,
                health.state() == ReceiverHealth.State.FAILING || free() <= 0);
        if (free >= room / 2 && feed.claimWanted()) {
            return 0;
        }
        long wait = Math.min(DeliveredEvents.REMOVE_EVERY.toMillis(), feed.nextLookMillis() - now);
        long untilPermit = ceiling.map(limit -> limit.millisToNextPermit(System.nanoTime())).orElse(0L);
        if (free <= 0 && untilPermit > 0) {
            wait = Math.min(wait, untilPermit);
        }
        return Math.max(1, wait);
    }

    /**
     * Follows the outbox's word on whether the receiver is turned off: at start, and every
     * {@link ReceiverFeed#IDLE_LOOK}, since another instance may have turned it off, or an operator on again.
     */
    private void checkTurnedOff(long now) {
        nextOffCheckMillis = now + ReceiverFeed.IDLE_LOOK.toMillis();
        boolean off = outbox.isOff(key);
        boolean wasOff = health.state() == ReceiverHealth.State.TURNED_OFF;
        if (off && !wasOff) {
            health.turnedOff();
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": turned off (it answered 410 Gone); "
                    + ReceiverHealth.untilTurnedOn(key));
        } else if (!off && wasOff) {
            health.turnedOn();
            feed.othersRecorded();
            LOG.log(System.Logger.Level.INFO, "webhooks to " + key + ": turned on again; its events are sent");
        }
        if (off != wasOff || !offReported) {
            offReported = true;
            report.turnedOff(off);
        }
    }

    /** Requests that may start now: those free of the bound in flight, and within the receiver's ceiling. */
    private int free() {
        int free = dispatcher.free();
        return ceiling.isEmpty() ? free : Math.min(free, ceiling.get().permits(System.nanoTime()));
    }

    /** Starts an attempt, counted against the receiver's ceiling. */
    private void send(PlantEvent event) {
        ceiling.ifPresent(RateCeiling::started);
        dispatcher.send(event);
    }

    /** While the receiver fails: one event at a time, each after the back-off. */
    private long probe(long now) {
        pacing.letWritesGo();
        feed.releaseWaiting();
        if (!dispatcher.idle()) {
            return ReceiverFeed.IDLE_LOOK.toMillis();
        }
        if (now < health.nextProbeMillis()) {
            return health.nextProbeMillis() - now;
        }
        if (free() <= 0) {
            return Math.max(1, ceiling.map(limit -> limit.millisToNextPermit(System.nanoTime()))
                    .filter(wait -> wait > 0).orElse(ReceiverFeed.IDLE_LOOK.toMillis()));
        }
        List<PlantEvent> one = feed.claimOne(now);
        if (one.isEmpty()) {
            health.probedNothing(now);
            return health.nextProbeMillis() - now;
        }
        send(one.get(0));
        return ReceiverFeed.IDLE_LOOK.toMillis();
    }
}
