package dev.plantstore.core.webhooks;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a failed event is tried again, and when it is given up on: an exponential back-off with jitter from the first
 * retry (1 s, 2 s, 4 s ... up to five minutes), until the event's retry period has passed. The same for every
 * destination, a webhook receiver or another sink.
 */
public record RetryPolicy(Duration firstRetry, Duration retryPeriod) {

    /** The longest wait between two attempts at one event. */
    public static final Duration LONGEST_RETRY = Duration.ofMinutes(5);

    /** The wait before attempt {@code failures + 1}, also between two probes of a failing receiver. */
    public long backoffMillis(int failures) {
        long ceiling = LONGEST_RETRY.toMillis();
        long base = firstRetry.toMillis() << Math.min(Math.max(failures, 1) - 1, 20);
        long delay = Math.min(ceiling, Math.max(1, base));
        // Between half and all of it, so that receivers' retries started by one outage spread out.
        return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    }

    /** Whether an event whose retry period began at {@code retryFromMillis} is given up on when it fails now. */
    public boolean givesUp(long retryFromMillis, long nowMillis) {
        return nowMillis - retryFromMillis >= retryPeriod.toMillis();
    }
}
