package dev.plantstore.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The server's SLF4J backend, found through {@code META-INF/services}. slf4j-simple, used before, neither prints the
 * MDC (so no request id) nor writes JSON. Logback does both, but side by side on the memory store, behind an async
 * appender, it served 11 to 13 % fewer creates than this with the default text lines, and the same with JSON lines
 * whose fields it names otherwise (bench/RESULTS.md, "Why the hot path looks as it does"). This writes each line in
 * one pass, through the same buffered {@link Console} as before.
 */
public final class ConsoleLoggerProvider implements SLF4JServiceProvider {

    /** Levels by logger name prefix; the longest matching prefix wins, INFO when none does. */
    static final Map<String, Integer> THRESHOLDS = Map.of(
            // Jetty and Javalin announce their own start and stop; our one start-up line is enough.
            "org.eclipse.jetty", Level.WARN.toInt(),
            "io.javalin", Level.WARN.toInt(),
            // A failure to bind is reported by the launcher in one line of its own.
            "io.javalin.Javalin", ConsoleLogger.OFF,
            // The pool announces every start and stop, and warns once per pooled connection that a fault breaks, with a
            // stack trace each; the store logs the fault itself, once when it starts and once when it ends.
            "com.zaxxer.hikari", Level.ERROR.toInt(),
            // Kafka's client warns at every reconnection to brokers that are down, and prints its settings at INFO;
            // the sink logs each fault itself, once when it starts and once when it ends, with what to do.
            "org.apache.kafka", ConsoleLogger.OFF);

    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory loggerFactory = name -> loggers.computeIfAbsent(name,
            key -> new ConsoleLogger(key, threshold(key)));
    private final IMarkerFactory markerFactory = new BasicMarkerFactory();
    private final MDCAdapter mdcAdapter = new BasicMDCAdapter();

    static int threshold(String loggerName) {
        String longest = "";
        int threshold = Level.INFO.toInt();
        for (var rule : THRESHOLDS.entrySet()) {
            String prefix = rule.getKey();
            boolean matches = loggerName.equals(prefix) || loggerName.startsWith(prefix + ".");
            if (matches && prefix.length() > longest.length()) {
                longest = prefix;
                threshold = rule.getValue();
            }
        }
        return threshold;
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggerFactory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markerFactory;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdcAdapter;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
    }
}
