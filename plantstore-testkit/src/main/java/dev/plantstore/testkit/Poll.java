package dev.plantstore.testkit;

import java.time.Duration;
import java.util.Optional;

/**
 * Waiting for something a test cannot be told about: look again every {@code interval} until it holds or the deadline
 * passes. The one place the tests pause while they wait for a state, and only between two looks at it; elsewhere a
 * test sleeps only as part of what it acts out, such as a client that sends its body slowly or a receiver that answers
 * late.
 */
public final class Poll {

    /**
     * How long to wait for something that takes a moment on an idle machine (a log line, a reload, a delivery, a
     * connection's close): long enough that only a hang runs into it, since these two cores, shared by two suites and
     * a load, have run the same work four to ten times slower than when idle.
     */
    public static final Duration PATIENCE = Duration.ofSeconds(60);

    private Poll() {
    }

    /** One look: the value once it is there, empty while not yet; it may throw {@code E} to stop the waiting. */
    @FunctionalInterface
    public interface Probe<T, E extends Exception> {
        Optional<T> check() throws E, InterruptedException;
    }

    /** One look at a condition; it may throw {@code E} to stop the waiting. */
    @FunctionalInterface
    public interface Condition<E extends Exception> {
        boolean holds() throws E, InterruptedException;
    }

    /** The first value {@code probe} gives within {@code limit}, looking every {@code interval}; empty if none. */
    public static <T, E extends Exception> Optional<T> until(Duration limit, Duration interval, Probe<T, E> probe)
            throws E, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            Optional<T> value = probe.check();
            if (value.isPresent() || System.nanoTime() - deadline >= 0) {
                return value;
            }
            Thread.sleep(interval.toMillis());
        }
    }

    /** Whether {@code condition} came to hold within {@code limit}, looking every {@code interval}. */
    public static <E extends Exception> boolean until(Duration limit, Duration interval, Condition<E> condition)
            throws E, InterruptedException {
        return until(limit, interval, () -> condition.holds() ? Optional.of(Boolean.TRUE) : Optional.empty())
                .isPresent();
    }
}
