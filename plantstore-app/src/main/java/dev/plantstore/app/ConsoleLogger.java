package dev.plantstore.app;

import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger that writes through {@link LogLines} at or above its level. */
final class ConsoleLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    /**
     * Loggers whose failures are the surroundings' and are written in one line, without their stack traces. The
     * tracing SDK logs each export that fails with its stack trace: a collector that cannot be reached (and the SDK
     * already limits how often it says so). SQLite's driver, as it loads its native library, deletes the copies in the
     * temporary directory that no running process holds, and logs one that another process starting at the same
     * moment deleted first: the copy is gone, as it wanted, and the store opens.
     */
    private static final List<String> ONE_LINE_FAILURES = List.of("io.opentelemetry.", "org.sqlite.SQLiteJDBCLoader");

    /** A threshold above ERROR: nothing is logged. */
    static final int OFF = Level.ERROR.toInt() + 10;

    private final int threshold;
    private final boolean failuresInOneLine;

    ConsoleLogger(String name, int threshold) {
        this.name = name;
        this.threshold = threshold;
        this.failuresInOneLine = ONE_LINE_FAILURES.stream().anyMatch(name::startsWith);
    }

    @Override
    public boolean isTraceEnabled() {
        return threshold <= Level.TRACE.toInt();
    }

    @Override
    public boolean isDebugEnabled() {
        return threshold <= Level.DEBUG.toInt();
    }

    @Override
    public boolean isInfoEnabled() {
        return threshold <= Level.INFO.toInt();
    }

    @Override
    public boolean isWarnEnabled() {
        return threshold <= Level.WARN.toInt();
    }

    @Override
    public boolean isErrorEnabled() {
        return threshold <= Level.ERROR.toInt();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                                               Throwable thrown) {
        String message = arguments == null || arguments.length == 0
                ? pattern
                : MessageFormatter.basicArrayFormat(pattern, arguments);
        if (thrown != null && failuresInOneLine) {
            LogLines.current().write(level, name, message + " (" + thrown + ")", null);
            return;
        }
        LogLines.current().write(level, name, message, thrown);
    }
}
