package dev.plantstore.http;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Counts refused tokens per client address in fixed one-minute windows. Past the limit, the address is refused
 * without its token being checked until its window ends, which makes guessing tokens slow.
 *
 * <p>Memory stays bounded and every call costs the same however many addresses are tracked: at most
 * {@value #MAX_ADDRESSES} windows are kept, and opening one more forgets the oldest. An address that was forgotten
 * starts a new window on its next refused token, so under a flood of new addresses the limit still applies to each
 * of them, only with a shorter memory.
 */
final class AuthFailureLimiter {

    static final long WINDOW_SECONDS = 60;
    static final int MAX_ADDRESSES = 100_000;

    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private record Window(String address, long startNanos, AtomicInteger failures) {
    }

    private final int limit;
    private final LongSupplier nanoClock;
    /** Read on every authenticated request, so lock-free. */
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();
    /**
     * Every window ever opened, oldest first, at most {@value #MAX_ADDRESSES}. Windows that ended or were replaced
     * stay until their turn comes; each window in {@link #windows} is here once, so the map is bounded too.
     */
    private final Deque<Window> openedOldestFirst = new ArrayDeque<>();

    AuthFailureLimiter(int limit, LongSupplier nanoClock) {
        this.limit = limit;
        this.nanoClock = nanoClock;
    }

    /** Seconds until {@code address} may try again; 0 when it may now. */
    long retryAfterSeconds(String address) {
        Window window = windows.get(address);
        if (window == null) {
            return 0;
        }
        long elapsed = nanoClock.getAsLong() - window.startNanos();
        if (elapsed >= WINDOW_NANOS) {
            windows.remove(address, window);
            return 0;
        }
        if (window.failures().get() < limit) {
            return 0;
        }
        return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(WINDOW_NANOS - elapsed + TimeUnit.SECONDS.toNanos(1) - 1));
    }

    void recordFailure(String address) {
        long now = nanoClock.getAsLong();
        Window opened = new Window(address, now, new AtomicInteger(1));
        Window current = windows.compute(address, (key, window) ->
                window == null || now - window.startNanos() >= WINDOW_NANOS ? opened : increment(window));
        if (current == opened) {
            remember(opened);
        }
    }

    /** Only a refused token that opens a window takes this lock: the cost of guessing, never of a valid request. */
    private synchronized void remember(Window opened) {
        if (openedOldestFirst.size() >= MAX_ADDRESSES) {
            Window oldest = openedOldestFirst.removeFirst();
            windows.remove(oldest.address(), oldest);
        }
        openedOldestFirst.addLast(opened);
    }

    private static Window increment(Window window) {
        window.failures().incrementAndGet();
        return window;
    }
}
