package dev.plantstore.core.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether writes wait for one sink's delivery, and the waiting itself: writes wait while more than the sink's room of
 * its events recorded in the last {@link #HOLDS_WRITES_WITHIN} are unsent and the sink is not the limit (it answers
 * and can take more), so that the writes share the machine with their delivery instead of leaving it behind. A
 * backlog older than that was left by an outage and holds up no write. The rules: docs/webhooks.md, "Keeping pace".
 */
public final class WritePacing {

    /** The longest a write waits for all sinks together. */
    public static final Duration LONGEST_WRITE_WAIT = Duration.ofMillis(100);
    public static final Duration HOLDS_WRITES_WITHIN = Duration.ofSeconds(10);

    private final long room;
    private final Object waiting = new Object();
    private volatile boolean holdsWrites;

    /** Pacing that holds the writes while more than {@code room} recent events are unsent. */
    public WritePacing(long room) {
        this.room = room;
    }

    /**
     * Waits, in front of a write, while any of {@code pacings} holds writes, at most {@link #LONGEST_WRITE_WAIT} in
     * all; an interrupt ends the wait with the interrupt kept.
     */
    public static void awaitEach(List<WritePacing> pacings) {
        long deadline = System.nanoTime() + LONGEST_WRITE_WAIT.toNanos();
        for (int i = 0; i < pacings.size(); i++) {
            WritePacing pacing = pacings.get(i);
            // Most writes find no sink holding them: they pass without taking the pacing's lock.
            if (pacing.holdsWrites() && !pacing.awaitRoom(deadline)) {
                return;
            }
        }
    }

    /**
     * Decides from {@code unsent} events, the oldest recorded at {@code oldestMillis}, at {@code nowMillis}, whether
     * writes wait; {@code sinkIsTheLimit} when it fails or can take no more now.
     */
    public void decide(long unsent, long oldestMillis, long nowMillis, boolean sinkIsTheLimit) {
        boolean behind = unsent > room && nowMillis - oldestMillis < HOLDS_WRITES_WITHIN.toMillis();
        boolean hold = behind && !sinkIsTheLimit;
        if (holdsWrites != hold) {
            holdUnless(hold);
        }
    }

    /** Whether a write would wait now. */
    public boolean holdsWrites() {
        return holdsWrites;
    }

    /** Lets every waiting write go, and the next ones pass, until the next decision. */
    public void letWritesGo() {
        holdUnless(false);
    }

    private void holdUnless(boolean hold) {
        synchronized (waiting) {
            holdsWrites = hold;
            if (!hold) {
                waiting.notifyAll();
            }
        }
    }

    /** Waits while writes are held, until {@code deadlineNanos} ({@link System#nanoTime()}); false if interrupted. */
    public boolean awaitRoom(long deadlineNanos) {
        synchronized (waiting) {
            long left;
            while (holdsWrites && (left = deadlineNanos - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(waiting, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }
}
