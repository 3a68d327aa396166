package dev.plantstore.core.jdbc;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A repeating failure logged as a change of state, so that one fault cannot flood the log: a line when it starts, a
 * summary at most every {@link #SUMMARY_EVERY} while it lasts (how many failures, for how long, the last reason), and a
 * line when it ends. A failure the code expects (a database error) is logged by its message alone; an unexpected
 * exception carries its stack trace, once per fault: on the line that starts the fault, or on a summary logged at once.
 *
 * <p>Lines go through {@link System.Logger}, which the JDK routes to the application's logging: the standalone server
 * writes them in its own format, and an embedder using SLF4J gets them there through SLF4J's platform-logging bridge.
 * Thread-safe.
 */
final class FaultLog {

    static final Duration SUMMARY_EVERY = Duration.ofSeconds(30);

    private final System.Logger logger;
    private final String what;
    private final LongSupplier nanoClock;

    private boolean failing;
    private long failingSinceNanos;
    private long lastSummaryNanos;
    private long failures;
    private long failuresSinceSummary;
    private boolean traceLogged;

    /**
     * @param what what fails, as the lines name it: "plant store writes"
     */
    FaultLog(System.Logger logger, String what, LongSupplier nanoClock) {
        this.logger = Objects.requireNonNull(logger, "null logger");
        this.what = Objects.requireNonNull(what, "null what");
        this.nanoClock = Objects.requireNonNull(nanoClock, "null nanoClock");
    }

    FaultLog(System.Logger logger, String what) {
        this(logger, what, System::nanoTime);
    }

    /** One more failure; {@code expected} is false for an exception that means a bug rather than a fault. */
    synchronized void failed(Throwable failure, boolean expected) {
        long now = nanoClock.getAsLong();
        failures++;
        failuresSinceSummary++;
        boolean withTrace = !expected && !traceLogged;
        traceLogged |= withTrace;
        if (!failing) {
            failing = true;
            failingSinceNanos = now;
            lastSummaryNanos = now;
            failuresSinceSummary = 0;
            log(System.Logger.Level.ERROR, what + " failing: " + reason(failure), withTrace ? failure : null);
        } else if (now - lastSummaryNanos >= SUMMARY_EVERY.toNanos() || withTrace) {
            log(System.Logger.Level.ERROR, what + " still failing: " + failuresSinceSummary + " more failures, "
                    + failures + " in " + seconds(now - failingSinceNanos) + "; last: " + reason(failure),
                    withTrace ? failure : null);
            lastSummaryNanos = now;
            failuresSinceSummary = 0;
        }
    }

    /** A success: ends a fault, if one was going on. */
    synchronized void succeeded() {
        if (!failing) {
            return;
        }
        log(System.Logger.Level.INFO, what + " working again after "
                + seconds(nanoClock.getAsLong() - failingSinceNanos) + " and " + failures
                + (failures == 1 ? " failure" : " failures"), null);
        failing = false;
        failures = 0;
        failuresSinceSummary = 0;
        traceLogged = false;
    }

    synchronized boolean isFailing() {
        return failing;
    }

    private void log(System.Logger.Level level, String message, Throwable trace) {
        if (trace == null) {
            logger.log(level, message);
        } else {
            logger.log(level, message, trace);
        }
    }

    /** The failure's own message, and its causes' where they add something: no class names a reader need not know. */
    static String reason(Throwable failure) {
        var reason = new StringBuilder();
        for (Throwable cause = failure; cause != null && reason.length() < 500; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message == null || message.isBlank()) {
                message = cause.getClass().getSimpleName();
            }
            if (reason.indexOf(message) < 0) {
                if (!reason.isEmpty()) {
                    reason.append(": ");
                }
                reason.append(message.strip().replaceAll("\\s+", " "));
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return reason.toString();
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
