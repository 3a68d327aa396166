package dev.plantstore.app;

import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger that writes through {@link LogLines} at or above its level. */
final class ConsoleLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    /** The loggers of the OpenTelemetry SDK, whose failures are written without their stack traces. */
    static final String TRACING_SDK = "io.opentelemetry.";

    /** A threshold above ERROR: nothing is logged. */
    static final int OFF = Level.ERROR.toInt() + 10;

    private final int threshold;

    ConsoleLogger(String name, int threshold) {
        this.name = name;
        this.threshold = threshold;
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
        if (thrown != null && name.startsWith(TRACING_SDK)) {
            // The tracing SDK logs each export that fails with its stack trace; a collector that cannot be reached is
            // the surroundings' fault, which one line says whole (and the SDK already limits how often it says it).
            LogLines.current().write(level, name, message + " (" + thrown + ")", null);
            return;
        }
        LogLines.current().write(level, name, message, thrown);
    }
}
