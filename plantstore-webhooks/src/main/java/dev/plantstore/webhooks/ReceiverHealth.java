package dev.plantstore.webhooks;

import java.util.List;

/**
 * A receiver's state line ({@link ReceiverState}) and its back-off while it fails, as the answers of its rounds of
 * attempts decide them. It logs each change of state, and a summary every so often while one lasts, never each
 * attempt.
 */
final class ReceiverHealth {

    /** Delivery's lines keep the logger name they have always had, which a logging configuration may name. */
    static final System.Logger LOG = System.getLogger("dev.plantstore.webhooks.ReceiverWorker");

    private final String key;
    private final RetryPolicy retries;
    private volatile ReceiverState state = ReceiverState.KEEPING_UP;
    /** Rounds in a row in which every attempt failed; 0 unless {@link ReceiverState#FAILING}. */
    private int failingRounds;
    private long failedAttempts;
    private String lastReason;
    private long nextProbeMillis;

    ReceiverHealth(String key, RetryPolicy retries) {
        this.key = key;
        this.retries = retries;
    }

    ReceiverState state() {
        return state;
    }

    /** The worker is behind what this process records: its events go through the outbox until it caught up. */
    void fellBehind() {
        state = ReceiverState.CATCHING_UP;
    }

    /** A claim found no more than it could send, and nothing waits in memory. */
    void caughtUp() {
        if (state == ReceiverState.CATCHING_UP) {
            state = ReceiverState.KEEPING_UP;
        }
    }

    /** When a failing receiver is tried again. */
    long nextProbeMillis() {
        return nextProbeMillis;
    }

    /** A probe found nothing to send: the next look waits the back-off. */
    void probedNothing(long now) {
        nextProbeMillis = now + retries.backoffMillis(failingRounds);
    }

    /**
     * A round ended: {@code delivered} events and {@code failedReasons}, with {@code idle} when no request is left in
     * flight. Returns true when the receiver recovered, so that what waits for it is claimed.
     */
    boolean roundEnded(int delivered, List<String> failedReasons, boolean idle, long now) {
        failedAttempts += failedReasons.size();
        if (!failedReasons.isEmpty()) {
            lastReason = failedReasons.get(failedReasons.size() - 1);
        }
        if (delivered > 0) {
            boolean recovered = state == ReceiverState.FAILING;
            if (recovered) {
                LOG.log(System.Logger.Level.INFO, "webhooks to " + key + ": recovered after "
                        + failedAttempts + " failed attempts");
                state = ReceiverState.CATCHING_UP;
            }
            failingRounds = 0;
            failedAttempts = 0;
            return recovered;
        }
        // The other requests of a page that fails end one by one: together they are one failed round.
        if (failingRounds == 0 || idle) {
            failingRounds++;
        }
        state = ReceiverState.FAILING;
        nextProbeMillis = now + retries.backoffMillis(failingRounds);
        if (failingRounds == 1 && failedAttempts == failedReasons.size()) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": failing (" + lastReason
                    + "); retrying with back-off");
        } else if (failingRounds > 1 && Integer.bitCount(failingRounds) == 1 && idle) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": still failing, " + failedAttempts
                    + " failed attempts so far (last: " + lastReason + ")");
        }
        return false;
    }
}
