package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.PlantEvent;
import io.opentelemetry.api.trace.Span;
import java.time.Duration;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends one receiver's events: signs each ({@link WebhookSigner}), traces it ({@link AttemptSpans}) and sends it
 * through the {@link Transport}, at most {@value DeliveryLimits#IN_FLIGHT} at once. What each attempt came to waits
 * for the worker's next turn, which it wakes. A complete 2xx answer to an event's own request delivers it; anything
 * else, and anything an attempt throws, fails it.
 */
final class Dispatcher {

    /**
     * What one attempt came to, when it ended; {@code reason} says why it failed, never with the answer's body;
     * {@code retryAfter}, how long the receiver asked to be left alone; {@code gone}, whether it answered
     * {@code 410 Gone}, which asks never to be sent to again.
     */
    record Attempt(PlantEvent event, boolean delivered, String reason, long endedAtMillis,
                   Optional<Duration> retryAfter, boolean gone) {
    }

    private static final int GONE = 410;

    private final Transport transport;
    private final WebhookSigner signer;
    private final AttemptSpans spans;
    private final Runnable wake;
    private final Queue<Attempt> ended = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    Dispatcher(Transport transport, WebhookSigner signer, AttemptSpans spans, Runnable wake) {
        this.transport = transport;
        this.signer = signer;
        this.spans = spans;
        this.wake = wake;
    }

    /** Requests that may start now. */
    int free() {
        return DeliveryLimits.IN_FLIGHT - inFlight.get();
    }

    boolean idle() {
        return inFlight.get() == 0;
    }

    /**
     * One attempt. Whatever it throws, here or on the transport's thread, fails it, and its request in flight is given
     * back exactly once.
     */
    void send(PlantEvent event) {
        inFlight.incrementAndGet();
        // The attempt's span, once the application's tracing has begun it.
        var span = new AtomicReference<>(Span.getInvalid());
        var once = new AtomicBoolean();
        Transport.Ended end = (sent, outcome) -> {
            if (once.compareAndSet(false, true)) {
                try {
                    AttemptSpans.end(span.get(), outcome);
                } finally {
                    attemptEnded(sent, outcome);
                }
            }
        };
        try {
            AttemptSpans.Attempt attempt = spans.begin(event);
            span.set(attempt.span());
            transport.send(event, signer.request(event, attempt.sent()), end);
        } catch (RuntimeException | Error e) {
            // A transport tells its failures to end; what throws here (the application's tracing, the signer, a
            // transport at fault) is a fault.
            end.ended(event, new Transport.Outcome.Failed(ReceiverHealth.describe(e)));
        }
    }

    /** On the transport's thread: hands the outcome to the worker's next turn. */
    private void attemptEnded(PlantEvent event, Transport.Outcome outcome) {
        long endedAt = System.currentTimeMillis();
        if (outcome instanceof Transport.Outcome.Answered answered) {
            int status = answered.status();
            ended.add(new Attempt(event, status >= 200 && status < 300, "HTTP " + status, endedAt,
                    answered.retryAfter(), status == GONE));
        } else if (outcome instanceof Transport.Outcome.Failed failed) {
            ended.add(new Attempt(event, false, failed.reason(), endedAt, Optional.empty(), false));
        }
        inFlight.decrementAndGet();
        wake.run();
    }

    /** The next attempt that ended since the last look, or null. */
    Attempt nextEnded() {
        return ended.poll();
    }

    /** Closes the receiver's transport; attempts still running end with the client the transports share. */
    void close() {
        transport.close();
    }
}
