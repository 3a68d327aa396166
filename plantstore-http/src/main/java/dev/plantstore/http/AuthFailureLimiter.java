package dev.plantstore.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Counts refused tokens per client address in fixed one-minute windows. Past the limit, the address is refused
 * without its token being checked until its window ends, which makes guessing tokens slow. Memory stays bounded:
 * ended windows are dropped, and past {@value #MAX_ADDRESSES} addresses new ones are not tracked.
 */
final class AuthFailureLimiter {

    static final long WINDOW_SECONDS = 60;
    static final int MAX_ADDRESSES = 100_000;

    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private record Window(long startNanos, AtomicInteger failures) {
    }

    private final int limit;
    private final LongSupplier nanoClock;
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

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
        if (windows.size() >= MAX_ADDRESSES) {
            windows.values().removeIf(window -> now - window.startNanos() >= WINDOW_NANOS);
            if (windows.size() >= MAX_ADDRESSES && !windows.containsKey(address)) {
                return;
            }
        }
        windows.compute(address, (key, window) -> window == null || now - window.startNanos() >= WINDOW_NANOS
                ? new Window(now, new AtomicInteger(1))
                : increment(window));
    }

    private static Window increment(Window window) {
        window.failures().incrementAndGet();
        return window;
    }
}
