package dev.plantstore.webhooks;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A receiver's ceiling on requests, from its URL's fragment {@code #rate=N} (checked where the settings are made): at
 * most N of its requests arrive in any second. What the receiver counts lies between a request's start and its answer,
 * so each attempt holds one of the N places from its start until a second after it ended: then no second at the
 * receiver can hold more than N, however the network or the receiver's own queue bunch them. It sits in front of the
 * worker's sends and knows nothing of what they carry; one thread, the worker's, calls it.
 */
final class RateCeiling {

    private static final String FRAGMENT = "rate=";
    private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final int perSecond;
    private int inFlight;
    /** When each attempt that ended in the last second was seen to end ({@link System#nanoTime()}), oldest first. */
    private final ArrayDeque<Long> recentlyEnded = new ArrayDeque<>();

    RateCeiling(int perSecond) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("a ceiling of " + perSecond + " requests a second");
        }
        this.perSecond = perSecond;
    }

    /** The ceiling {@code receiver}'s fragment sets, if it sets one. */
    static Optional<RateCeiling> of(URI receiver) {
        String fragment = receiver.getRawFragment();
        return fragment == null || !fragment.startsWith(FRAGMENT) ? Optional.empty()
                : Optional.of(new RateCeiling(Integer.parseInt(fragment.substring(FRAGMENT.length()))));
    }

    int perSecond() {
        return perSecond;
    }

    /** How many attempts may start at {@code nowNanos}. */
    int permits(long nowNanos) {
        forgetOlderThanASecond(nowNanos);
        return Math.max(0, perSecond - inFlight - recentlyEnded.size());
    }

    /** An attempt starts; the caller asked {@link #permits} first. */
    void started() {
        inFlight++;
    }

    /** An attempt that {@link #started} was seen to end at {@code nowNanos}: after it did, the safe side to err on. */
    void ended(long nowNanos) {
        inFlight--;
        recentlyEnded.addLast(nowNanos);
    }

    /**
     * How long from {@code nowNanos} until another attempt may start, as far as the attempts that ended tell: 0 when
     * one may now, or when only the end of one in flight would free a place (which wakes the worker).
     */
    long millisToNextPermit(long nowNanos) {
        if (permits(nowNanos) > 0 || recentlyEnded.isEmpty()) {
            return 0;
        }
        return TimeUnit.NANOSECONDS.toMillis(recentlyEnded.peekFirst() + SECOND_NANOS - nowNanos) + 1;
    }

    private void forgetOlderThanASecond(long nowNanos) {
        while (!recentlyEnded.isEmpty() && nowNanos - recentlyEnded.peekFirst() >= SECOND_NANOS) {
            recentlyEnded.removeFirst();
        }
    }
}
