package dev.plantstore.webhooks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Whether writes wait for one receiver's delivery, and the waiting itself. Writes wait while more than {@link #ROOM}
 * of the receiver's events recorded in the last {@link #HOLDS_WRITES_WITHIN} are not yet sent, and the receiver is
 * not the limit: it answers (it is not failing) and has a request to spare. The writes then share the machine with
 * their delivery instead of leaving it behind. A slow receiver keeps all its requests in flight; then it falls behind
 * and catches up from the table while the writes go at their own rate. A backlog older than that was left by an
 * outage, not by the writes of the moment, and holds up no write.
 */
final class WritePacing {

    /**
     * Events recorded and not yet sent to a receiver, beyond which writes wait: more than the requests in flight, so
     * that the connections stay busy.
     */
    static final int ROOM = 4 * DeliveryLimits.IN_FLIGHT;
    /** The longest a write waits for all receivers together. */
    static final Duration LONGEST_WRITE_WAIT = Duration.ofMillis(100);
    static final Duration HOLDS_WRITES_WITHIN = Duration.ofSeconds(10);

    private final Object room = new Object();
    private volatile boolean holdsWrites;

    /**
     * Decides from {@code unsent} events, the oldest recorded at {@code oldestMillis}, at {@code nowMillis}, whether
     * writes wait; {@code receiverIsTheLimit} when it fails or has every request in flight.
     */
    void decide(long unsent, long oldestMillis, long nowMillis, boolean receiverIsTheLimit) {
        boolean behind = unsent > ROOM && nowMillis - oldestMillis < HOLDS_WRITES_WITHIN.toMillis();
        boolean hold = behind && !receiverIsTheLimit;
        if (holdsWrites != hold) {
            holdUnless(hold);
        }
    }

    /** Whether a write would wait now. */
    boolean holdsWrites() {
        return holdsWrites;
    }

    /** Lets every waiting write go, and the next ones pass, until the next decision. */
    void letWritesGo() {
        holdUnless(false);
    }

    private void holdUnless(boolean hold) {
        synchronized (room) {
            holdsWrites = hold;
            if (!hold) {
                room.notifyAll();
            }
        }
    }

    /** Waits while writes are held, until {@code deadlineNanos} ({@link System#nanoTime()}); false if interrupted. */
    boolean awaitRoom(long deadlineNanos) {
        synchronized (room) {
            long left;
            while (holdsWrites && (left = deadlineNanos - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(room, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }
}
