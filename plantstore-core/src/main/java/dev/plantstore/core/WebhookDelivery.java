package dev.plantstore.core;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the outbox's events to their receivers: one worker thread per receiver, so a receiver that is slow or down
 * holds up only its own events, and never the store's writes or its health.
 *
 * <p>A worker claims a page of due events (each the earliest pending one of its plant id, so the events of an id
 * arrive in order while other ids go ahead), sends them at once, and reports each outcome to the outbox: a 2xx
 * within {@link Webhooks#ATTEMPT_TIMEOUT} removes the event; anything else keeps it for a retry after an exponential
 * back-off with jitter (1 s, 2 s, 4 s ... up to 5 minutes), until the event is older than the retry period, when it
 * is kept as undeliverable. While a receiver fails, its worker waits out the same back-off between attempts and sends
 * one event at a time, so a struggling receiver is not flooded; its first success sends pages again. Redirects are not
 * followed and response bodies are not read.
 */
final class WebhookDelivery implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WebhookDelivery.class.getName());

    static final int PAGE = 16;
    /** How often an idle worker looks for events that another instance recorded, or whose retry fell due. */
    private static final Duration IDLE_LOOK = Duration.ofSeconds(1);
    private static final Duration BACKLOG_EVERY = Duration.ofSeconds(5);

    private final Outbox outbox;
    private final Webhooks webhooks;
    private final WebhookSigner signer;
    private final HttpClient client;
    private final List<Worker> workers = new ArrayList<>();
    private volatile boolean closed;

    private WebhookDelivery(Outbox outbox, Webhooks webhooks) {
        this.outbox = Objects.requireNonNull(outbox, "null outbox");
        this.webhooks = Objects.requireNonNull(webhooks, "null webhooks");
        this.signer = webhooks.signer();
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Webhooks.ATTEMPT_TIMEOUT)
                .build();
    }

    /** Starts a worker per receiver of {@code webhooks}. */
    static WebhookDelivery start(Outbox outbox, Webhooks webhooks) {
        var delivery = new WebhookDelivery(outbox, webhooks);
        for (URI receiver : webhooks.receivers()) {
            Worker worker = delivery.new Worker(receiver);
            delivery.workers.add(worker);
            worker.thread.start();
        }
        return delivery;
    }

    /** A write took effect here: workers waiting for events look at once rather than at their next look. */
    void wake() {
        for (Worker worker : workers) {
            LockSupport.unpark(worker.thread);
        }
    }

    /**
     * Stops the workers. Events in flight stay leased and are tried again once their lease ends, by this store's
     * next run or another instance.
     */
    @Override
    public void close() {
        closed = true;
        for (Worker worker : workers) {
            worker.thread.interrupt();
        }
        for (Worker worker : workers) {
            try {
                worker.thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The wait before attempt {@code failures + 1}: doubling from the first retry up to five minutes, jittered. */
    static long backoffMillis(Duration first, int failures) {
        long ceiling = Webhooks.LONGEST_RETRY.toMillis();
        long base = first.toMillis() << Math.min(failures - 1, 20);
        long delay = Math.min(ceiling, Math.max(1, base));
        // Between half and all of it, so that receivers' retries started by one outage spread out.
        return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    }

    /** What one attempt came to; {@code reason} says why it failed, never with the response body. */
    private record Attempt(PlantEvent event, boolean delivered, String reason) {
    }

    private final class Worker {

        private final URI receiver;
        private final String name;
        private final String shown;
        private final Thread thread;
        /** Rounds in a row in which every attempt failed; 0 while the receiver takes events. */
        private int failingRounds;
        private long failedAttempts;
        private String lastReason;
        private long nextBacklogNanos = System.nanoTime();

        Worker(URI receiver) {
            this.receiver = receiver;
            this.name = receiver.toString();
            this.shown = Webhooks.redacted(receiver);
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
                    return;
                } catch (RuntimeException e) {
                    outboxFailures++;
                    if (outboxFailures == 1) {
                        LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": the outbox failed: "
                                + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
                    }
                    try {
                        pause(backoffMillis(webhooks.firstRetry(), outboxFailures));
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
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

        /** One round: claims due events and tries them; returns how long to wait before the next round. */
        private long doRun() throws InterruptedException {
            reportBacklog();
            long now = System.currentTimeMillis();
            List<PlantEvent> page = outbox.claim(name, now, failingRounds > 0 ? 1 : PAGE);
            if (page.isEmpty()) {
                return failingRounds > 0 ? backoffMillis(webhooks.firstRetry(), failingRounds) : IDLE_LOOK.toMillis();
            }
            List<CompletableFuture<Attempt>> sent = new ArrayList<>(page.size());
            for (PlantEvent event : page) {
                sent.add(send(event));
            }
            List<PlantEvent> delivered = new ArrayList<>();
            List<Attempt> failed = new ArrayList<>();
            for (int i = 0; i < page.size(); i++) {
                Attempt outcome = await(page.get(i), sent.get(i));
                if (outcome.delivered()) {
                    delivered.add(outcome.event());
                } else {
                    failed.add(outcome);
                }
            }
            outbox.delivered(delivered);
            delivered.forEach(event -> tell(WebhookListener.Outcome.DELIVERED));
            long after = System.currentTimeMillis();
            for (Attempt attempt : failed) {
                retryOrGiveUp(attempt, after);
            }
            return noteRound(delivered.size(), failed);
        }

        private CompletableFuture<Attempt> send(PlantEvent event) {
            String id = "msg_" + event.seq();
            byte[] body = WebhookBody.of(event);
            long timestamp = System.currentTimeMillis() / 1_000;
            HttpRequest request = HttpRequest.newBuilder(receiver)
                    .timeout(Webhooks.ATTEMPT_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("webhook-id", id)
                    .header("webhook-timestamp", Long.toString(timestamp))
                    .header("webhook-signature", signer.sign(id, timestamp, body))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            return client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .handle((response, failure) -> {
                        if (failure != null) {
                            return new Attempt(event, false, describe(failure));
                        }
                        int status = response.statusCode();
                        return new Attempt(event, status >= 200 && status < 300, "HTTP " + status);
                    });
        }

        /**
         * The client's time-outs bound the connection and the wait for the response's head; this bounds the rest, a
         * body that never ends included.
         */
        private Attempt await(PlantEvent event, CompletableFuture<Attempt> attempt) throws InterruptedException {
            try {
                return attempt.get(Webhooks.ATTEMPT_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                return new Attempt(event, false, describe(e.getCause()));
            } catch (TimeoutException e) {
                attempt.cancel(true);
                return new Attempt(event, false, "no complete answer within "
                        + Webhooks.ATTEMPT_TIMEOUT.multipliedBy(2).toSeconds() + " s");
            }
        }

        private void retryOrGiveUp(Attempt attempt, long now) {
            PlantEvent event = attempt.event();
            if (now - event.recordedAtMillis() >= webhooks.retryPeriod().toMillis()) {
                outbox.undeliverable(event);
                tell(WebhookListener.Outcome.UNDELIVERABLE);
                LOG.log(System.Logger.Level.ERROR, "webhooks to " + shown + ": event msg_" + event.seq() + " ("
                        + event.type() + " of plant " + event.plantId() + ") is undeliverable after "
                        + (event.attempts() + 1) + " attempts over " + webhooks.retryPeriod()
                        + " (last: " + attempt.reason() + "); it is kept in the outbox, no longer retried");
            } else {
                outbox.retryAt(event, now + backoffMillis(webhooks.firstRetry(), event.attempts() + 1));
                tell(WebhookListener.Outcome.FAILED);
            }
        }

        /** Logs a change of the receiver's state, and a summary every so often while it lasts, never each attempt. */
        private long noteRound(int delivered, List<Attempt> failed) {
            failedAttempts += failed.size();
            if (!failed.isEmpty()) {
                lastReason = failed.get(failed.size() - 1).reason();
            }
            if (delivered > 0 || failed.isEmpty()) {
                if (failingRounds > 0) {
                    LOG.log(System.Logger.Level.INFO, "webhooks to " + shown + ": recovered after "
                            + failedAttempts + " failed attempts");
                }
                failingRounds = 0;
                failedAttempts = 0;
                return 0;
            }
            failingRounds++;
            if (failingRounds == 1) {
                LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": failing (" + lastReason
                        + "); retrying with back-off");
            } else if (Integer.bitCount(failingRounds) == 1) {
                LOG.log(System.Logger.Level.WARNING, "webhooks to " + shown + ": still failing, " + failedAttempts
                        + " failed attempts so far (last: " + lastReason + ")");
            }
            return backoffMillis(webhooks.firstRetry(), failingRounds);
        }

        private void reportBacklog() {
            if (System.nanoTime() - nextBacklogNanos < 0) {
                return;
            }
            nextBacklogNanos = System.nanoTime() + BACKLOG_EVERY.toNanos();
            Outbox.Backlog backlog = outbox.backlog(name);
            long age = backlog.pending() == 0 ? 0
                    : Math.max(0, System.currentTimeMillis() - backlog.oldestRecordedAtMillis());
            try {
                webhooks.listener().backlog(receiver, backlog.pending(), age);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
            }
        }

        private void tell(WebhookListener.Outcome outcome) {
            try {
                webhooks.listener().attempted(receiver, outcome);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks: the listener failed", e);
            }
        }

        private static String describe(Throwable failure) {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof HttpTimeoutException) {
                return "no answer within " + Webhooks.ATTEMPT_TIMEOUT.toSeconds() + " s";
            }
            String message = cause.getMessage();
            return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        }
    }
}
