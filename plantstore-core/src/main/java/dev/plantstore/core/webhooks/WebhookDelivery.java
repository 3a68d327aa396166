package dev.plantstore.core.webhooks;

import dev.plantstore.core.WebhookListener;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLSocketFactory;

/**
 * Sends the outbox's events to their receivers: one worker thread per receiver, so a receiver that is slow or down
 * holds up only its own events, and never the store's writes or its health.
 *
 * <p>Events reach a worker two ways. The events a batch of this process recorded and leased to it arrive in memory
 * as soon as the batch has committed ({@link RecordedEvents}), and are sent at once; their rows stay the durable
 * record. Every other event (recorded by another instance, left by a restart, due for a retry, or recorded while the
 * worker was not taking events in memory) is claimed from the outbox, each the earliest pending one of its plant id,
 * so that the events of an id arrive in order while other ids go ahead. An event is recorded leased only when no
 * earlier event of its plant is pending, so the two ways never reorder a plant's events.
 *
 * <p>At most {@value #IN_FLIGHT} requests are in flight to one receiver. A 2xx within
 * {@link DeliverySettings#ATTEMPT_TIMEOUT} delivers an event; delivered events leave the outbox in batches. Anything
 * else keeps the event for a retry after an exponential back-off with jitter (1 s, 2 s, 4 s ... up to 5 minutes), until
 * the event is older than the retry period, when it is kept as undeliverable. While a receiver fails, its worker takes
 * no events in memory, waits out the same back-off between attempts and sends one event at a time, so a struggling
 * receiver is not flooded; its first success resumes full speed. Redirects are not followed and response bodies are not
 * read.
 */
public final class WebhookDelivery implements AutoCloseable, RecordedEvents {

    private static final System.Logger LOG = System.getLogger(WebhookDelivery.class.getName());

    /** Requests in flight to one receiver at most, and so the most events one claim takes. */
    public static final int IN_FLIGHT = 128;
    /** Events recorded by this process that wait in memory for one receiver, at most. */
    static final int WAITING_IN_MEMORY = 8_192;
    /**
     * An event that waited in memory longer than this shows the worker is behind: the receiver's events then go
     * through the table, oldest first, until the worker has caught up.
     */
    private static final Duration LONGEST_WAIT_IN_MEMORY = Duration.ofSeconds(5);
    /**
     * Events recorded and not yet sent to a receiver, beyond which writes wait for the delivery, each for at most
     * {@link #LONGEST_WRITE_WAIT}: more than the requests in flight, so that the connections stay busy.
     */
    static final int ROOM = 4 * IN_FLIGHT;
    static final Duration LONGEST_WRITE_WAIT = Duration.ofMillis(100);
    /**
     * A backlog whose oldest event is older than this was left by an outage, not by the writes of the moment: writes
     * do not wait for it to drain.
     */
    static final Duration HOLDS_WRITES_WITHIN = Duration.ofSeconds(10);
    /** How often an idle worker looks for events that another instance recorded, or whose retry fell due. */
    private static final Duration IDLE_LOOK = Duration.ofSeconds(1);
    private static final Duration OLDEST_EVERY = Duration.ofSeconds(1);
    private static final Duration COUNT_EVERY = Duration.ofSeconds(5);
    private static final Duration DELETE_EVERY = Duration.ofMillis(100);
    private static final int DELETE_BATCH = 1_024;

    private final Outbox outbox;
    private final DeliverySettings settings;
    private final Map<String, Worker> workers = new LinkedHashMap<>();
    private volatile boolean closed;

    private WebhookDelivery(Outbox outbox, DeliverySettings settings) {
        this.outbox = Objects.requireNonNull(outbox, "null outbox");
        this.settings = Objects.requireNonNull(settings, "null settings");
    }

    /** Starts a worker per receiver of {@code settings}. */
    public static WebhookDelivery start(Outbox outbox, DeliverySettings settings) {
        var delivery = new WebhookDelivery(outbox, settings);
        for (URI receiver : settings.receivers()) {
            delivery.workers.put(receiver.toString(), delivery.new Worker(receiver, settings.tlsSockets()));
        }
        delivery.workers.values().forEach(worker -> worker.thread.start());
        return delivery;
    }

    @Override
    public boolean admits(String receiver) {
        Worker worker = workers.get(receiver);
        return worker != null && worker.takesEventsInMemory && worker.waitingCount.get() < WAITING_IN_MEMORY;
    }

    @Override
    public void committed(List<PlantEvent> leased, boolean othersRecorded) {
        for (PlantEvent event : leased) {
            Worker worker = workers.get(event.receiver());
            if (worker != null) {
                worker.waiting.add(event);
                worker.waitingCount.incrementAndGet();
            }
        }
        for (Worker worker : workers.values()) {
            if (othersRecorded) {
                worker.claimWanted = true;
            }
            LockSupport.unpark(worker.thread);
        }
    }

    /**
     * Waits while a receiver has more than {@value #ROOM} events recorded and not yet sent, at most
     * {@link #LONGEST_WRITE_WAIT} in all: the writes then share the machine with their delivery instead of leaving it
     * behind. A receiver that fails, or answers so slowly that all its requests are in flight, holds up no write, nor
     * does a backlog left by an outage.
     */
    @Override
    public void awaitRoom() {
        long deadline = System.nanoTime() + LONGEST_WRITE_WAIT.toNanos();
        for (Worker worker : workers.values()) {
            synchronized (worker.room) {
                long left;
                while (worker.holdsWrites && (left = deadline - System.nanoTime()) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(worker.room, left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /** Whether a write would wait now. */
    boolean holdsWrites() {
        return workers.values().stream().anyMatch(worker -> worker.holdsWrites);
    }

    /**
     * Stops the workers. Delivered events leave the outbox; events in flight stay leased and are tried again once
     * their lease ends, by this store's next run or another instance.
     */
    @Override
    public void close() {
        closed = true;
        for (Worker worker : workers.values()) {
            worker.thread.interrupt();
        }
        try {
            for (Worker worker : workers.values()) {
                worker.thread.join(1_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            workers.values().forEach(worker -> worker.connections.close());
        }
    }

    /** The wait before attempt {@code failures + 1}: doubling from the first retry up to five minutes, jittered. */
    static long backoffMillis(Duration first, int failures) {
        long ceiling = DeliverySettings.LONGEST_RETRY.toMillis();
        long base = first.toMillis() << Math.min(failures - 1, 20);
        long delay = Math.min(ceiling, Math.max(1, base));
        // Between half and all of it, so that receivers' retries started by one outage spread out.
        return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    }

    /** The request of one attempt, from its headers on: signed anew each time, as its timestamp is now. */
    private byte[] request(PlantEvent event) {
        String id = "msg_" + event.seq();
        byte[] body = WebhookBody.of(event);
        long timestamp = System.currentTimeMillis() / 1_000;
        byte[] head = ("Content-Type: application/json\r\nContent-Length: " + body.length
                + "\r\nUser-Agent: plantstore\r\nwebhook-id: " + id + "\r\nwebhook-timestamp: " + timestamp
                + "\r\nwebhook-signature: " + settings.signer().sign(id, timestamp, body) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        return request;
    }

    /**
     * What one attempt came to, when it ended; {@code reason} says why it failed, never with the response body.
     */
    private record Attempt(PlantEvent event, boolean delivered, String reason, long endedAtMillis) {
    }

    private final class Worker {

        private final URI receiver;
        private final String name;
        private final String shown;
        private final Thread thread;
        private final ReceiverConnections connections;
        /** Events this process recorded and leased, in the order their batches committed. */
        private final Queue<PlantEvent> waiting = new ConcurrentLinkedQueue<>();
        private final AtomicInteger waitingCount = new AtomicInteger();
        private final Queue<Attempt> ended = new ConcurrentLinkedQueue<>();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final List<PlantEvent> deliveredNotYetRemoved = new ArrayList<>();
        /** What writes wait on while {@link #holdsWrites}. */
        private final Object room = new Object();
        /** True while writes wait for this receiver's delivery ({@link #decideWhetherWritesWait}). */
        private volatile boolean holdsWrites;
        /** False while the receiver fails or the worker is behind: events are then recorded for a claim. */
        private volatile boolean takesEventsInMemory = true;
        /** True while the outbox may hold claimable events: at start, and after others were recorded. */
        private volatile boolean claimWanted = true;
        private long nextLookMillis;
        private long lastRemovalNanos = System.nanoTime();
        /** Rounds in a row in which every attempt failed; 0 while the receiver takes events. */
        private int failingRounds;
        private long failedAttempts;
        private String lastReason;
        private long nextAttemptWhileFailingMillis;
        private long nextOldestNanos = System.nanoTime();
        private long nextCountNanos = System.nanoTime();
        private long pendingCount;
        /** When the oldest pending event was recorded, as {@link #reportBacklog} last read it; 0 for none. */
        private long oldestPendingMillis;

        Worker(URI receiver, SSLSocketFactory tlsSockets) {
            this.receiver = receiver;
            this.name = receiver.toString();
            this.shown = DeliverySettings.redacted(receiver);
            this.connections = new ReceiverConnections(receiver, IN_FLIGHT, DeliverySettings.ATTEMPT_TIMEOUT,
                    tlsSockets, WebhookDelivery.this::request, this::ended);
            this.thread = new Thread(this::run, "plantstore-webhook " + shown);
            thread.setDaemon(true);
        }

        /** Until closed: a failure of the outbox (the database down) is logged and waited out like a receiver's. */
        private void run() {
            int outboxFailures = 0;
            while (!closed) {
                try {
                    long waitMillis = doRun();
                    outboxFailures = 0;
                    pause(waitMillis);
                } catch (InterruptedException e) {
                    break;
                } catch (RuntimeException e) {
                    outboxFailures++;
                    if (outboxFailures == 1) {
                        LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": the outbox failed: "
                                + e.getMessage()
                                + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
                    }
                    try {
                        pause(backoffMillis(settings.firstRetry(), outboxFailures));
                    } catch (InterruptedException interrupted) {
                        break;
                    }
                }
            }
            stop();
        }

        /** What a graceful stop can still do: record what was delivered, and free the events not yet sent. */
        private void stop() {
            letWritesGoUnless(false);
            try {
                settle(System.currentTimeMillis());
                removeDelivered();
                releaseWaiting();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": at stop, the outbox failed: "
                        + e.getMessage());
            }
        }

        private void pause(long millis) throws InterruptedException {
            if (millis > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
            }
            if (Thread.interrupted() || closed) {
                throw new InterruptedException();
            }
        }

        /** One turn: records what ended, then sends what it can; returns how long to wait for more to do. */
        private long doRun() {
            long now = System.currentTimeMillis();
            settle(now);
            reportBacklog(now);
            if (failingRounds > 0) {
                return probe(now);
            }
            if (!takesEventsInMemory) {
                releaseWaiting();
            }
            int free = IN_FLIGHT - inFlight.get();
            // A claim costs a statement whatever it takes: it waits until half the requests are free, or all.
            if ((free >= IN_FLIGHT / 2 || free == IN_FLIGHT) && (claimWanted || now >= nextLookMillis)) {
                free -= claim(now, free);
            }
            while (takesEventsInMemory && free > 0) {
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
            decideWhetherWritesWait(now);
            if (free >= IN_FLIGHT / 2 && claimWanted) {
                return 0;
            }
            return Math.max(1, Math.min(DELETE_EVERY.toMillis(), nextLookMillis - now));
        }

        /**
         * Writes wait for this receiver while more than {@value #ROOM} of its events recorded in the last
         * {@link #HOLDS_WRITES_WITHIN} are not yet sent, and the receiver is not the limit: it answers (it is not
         * failing) and has a request to spare. A slow receiver keeps all its requests in flight; then it falls behind
         * and catches up from the table while the writes go at their own rate.
         */
        private void decideWhetherWritesWait(long now) {
            Outbox.Backlog unsent = outbox.backlogWithoutScan(name).orElseGet(this::unsentOfThisProcess);
            boolean behind = unsent.pending() > ROOM
                    && now - unsent.oldestRecordedAtMillis() < HOLDS_WRITES_WITHIN.toMillis();
            boolean receiverIsTheLimit = failingRounds > 0 || inFlight.get() >= IN_FLIGHT;
            boolean hold = behind && !receiverIsTheLimit;
            if (holdsWrites != hold) {
                letWritesGoUnless(hold);
            }
        }

        /**
         * The events of a database store not yet sent: those waiting in memory or, once the worker fell behind and
         * takes them from the table, more than {@value #ROOM} since the oldest pending one (as last read).
         */
        private Outbox.Backlog unsentOfThisProcess() {
            if (!takesEventsInMemory) {
                return new Outbox.Backlog(oldestPendingMillis == 0 ? 0 : ROOM + 1L, oldestPendingMillis);
            }
            PlantEvent oldest = waiting.peek();
            return new Outbox.Backlog(waitingCount.get(), oldest == null ? 0 : oldest.recordedAtMillis());
        }

        private void letWritesGoUnless(boolean hold) {
            synchronized (room) {
                holdsWrites = hold;
                if (!hold) {
                    room.notifyAll();
                }
            }
        }

        /** Claims up to {@code max} events and sends them; returns how many. */
        private int claim(long now, int max) {
            removeDelivered();
            claimWanted = false;
            nextLookMillis = now + IDLE_LOOK.toMillis();
            List<PlantEvent> page = outbox.claim(name, now, max);
            page.forEach(this::send);
            if (page.size() == max) {
                claimWanted = true;
            } else if (!takesEventsInMemory && waiting.isEmpty()) {
                takesEventsInMemory = true;
            }
            return page.size();
        }

        /**
         * The worker is behind what this process records: from now on the receiver's events are recorded for a claim,
         * and those waiting in memory are freed to be claimed too, oldest first, until the worker has caught up.
         */
        private void fallBehind(PlantEvent oldestWaiting) {
            takesEventsInMemory = false;
            claimWanted = true;
            List<PlantEvent> freed = new ArrayList<>();
            freed.add(oldestWaiting);
            drainWaitingInto(freed);
            outbox.release(freed);
        }

        private void releaseWaiting() {
            List<PlantEvent> freed = new ArrayList<>();
            drainWaitingInto(freed);
            outbox.release(freed);
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
            takesEventsInMemory = false;
            letWritesGoUnless(false);
            releaseWaiting();
            if (inFlight.get() > 0) {
                return IDLE_LOOK.toMillis();
            }
            if (now < nextAttemptWhileFailingMillis) {
                return nextAttemptWhileFailingMillis - now;
            }
            removeDelivered();
            List<PlantEvent> one = outbox.claim(name, now, 1);
            if (one.isEmpty()) {
                nextAttemptWhileFailingMillis = now + backoffMillis(settings.firstRetry(), failingRounds);
                return nextAttemptWhileFailingMillis - now;
            }
            send(one.get(0));
            return IDLE_LOOK.toMillis();
        }

        private void send(PlantEvent event) {
            inFlight.incrementAndGet();
            connections.send(event);
        }

        /** On a connection's thread: hands the outcome to the worker's next turn. */
        private void ended(PlantEvent event, ReceiverConnections.Outcome outcome) {
            long endedAt = System.currentTimeMillis();
            if (outcome instanceof ReceiverConnections.Outcome.Answered answered) {
                int status = answered.status();
                ended.add(new Attempt(event, status >= 200 && status < 300, "HTTP " + status, endedAt));
            } else if (outcome instanceof ReceiverConnections.Outcome.Failed failed) {
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
            if (now - event.retryFromMillis() >= settings.retryPeriod().toMillis()) {
                outbox.undeliverable(event);
                tell(WebhookListener.Outcome.UNDELIVERABLE);
                LOG.log(System.Logger.Level.ERROR, "webhooks to " + shown + ": event msg_" + event.seq() + " ("
                        + event.type() + " of plant " + event.plantId() + ") is undeliverable after "
                        + (event.attempts() + 1) + " attempts over " + settings.retryPeriod()
                        + " (last: " + attempt.reason() + "); it is kept in the outbox, no longer retried");
            } else {
                outbox.retryAt(event, now + backoffMillis(settings.firstRetry(), event.attempts() + 1));
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
                if (failingRounds > 0) {
                    LOG.log(System.Logger.Level.INFO, "webhooks to " + shown + ": recovered after "
                            + failedAttempts + " failed attempts");
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
            takesEventsInMemory = false;
            nextAttemptWhileFailingMillis = now + backoffMillis(settings.firstRetry(), failingRounds);
            if (failingRounds == 1 && failedAttempts == failed.size()) {
                LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": failing (" + lastReason
                        + "); retrying with back-off");
            } else if (failingRounds > 1 && Integer.bitCount(failingRounds) == 1 && inFlight.get() == 0) {
                LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": still failing, " + failedAttempts
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
            long oldest = outbox.oldestRecordedAt(name);
            oldestPendingMillis = oldest;
            if (oldest == 0) {
                pendingCount = 0;
            } else if (nanos - nextCountNanos >= 0) {
                nextCountNanos = nanos + COUNT_EVERY.toNanos();
                pendingCount = outbox.backlog(name).pending();
            }
            long age = oldest == 0 ? 0 : Math.max(0, now - oldest);
            try {
                settings.listener().backlog(receiver, pendingCount, age);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
            }
        }

        private void tell(WebhookListener.Outcome outcome) {
            try {
                settings.listener().attempted(receiver, outcome);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
            }
        }

        private void tellLatency(long millis) {
            try {
                settings.listener().delivered(receiver, Duration.ofMillis(Math.max(0, millis)));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
            }
        }
    }
}
