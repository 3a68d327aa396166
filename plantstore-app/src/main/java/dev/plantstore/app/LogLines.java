package dev.plantstore.app;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.plantstore.http.LogFields;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/**
 * Where the server's log lines go and how each is written: as text for people
 * ({@code 2026-11-22T05:43:36.594Z INFO [7f3a…] access - 203.0.113.7 POST /plants 200 1.2ms}), or as one JSON
 * object per line for a collector
 * ({@code {"time":…,"level":"INFO","logger":"dev.plantstore.access","message":…,"requestId":…}}). A line written
 * while a request is served carries that request's id, and whatever else the MDC holds then (the access line adds
 * client, method, route, status and duration). Until the launcher installs its console, lines go to standard error as
 * text.
 */
final class LogLines {

    /** How log lines are written: for people, or one JSON object per line for a collector. */
    enum Format { TEXT, JSON }


    /** Until the launcher installs its console, as in a test that does not. */
    private static volatile LogLines current =
            new LogLines(System.err, Format.TEXT, new Timestamps(ZoneId.systemDefault()));

    private final OutputStream sink;
    private final Format format;
    private final Timestamps timestamps;

    LogLines(OutputStream sink, Format format, Timestamps timestamps) {
        this.sink = sink;
        this.format = format;
        this.timestamps = timestamps;
    }

    /**
     * The lines every logger writes through from now on. SLF4J finds its backend by service loading and builds its
     * loggers itself, so they cannot be handed this instance: they look it up here, where the launcher sets it once.
     */
    static void use(LogLines lines) {
        current = lines;
    }

    static LogLines current() {
        return current;
    }

    Format format() {
        return format;
    }

    /**
     * Writes one line in one call, so that lines written at the same time never interleave. The MDC is read on the
     * calling thread: the request's id and fields are those of the request this thread serves.
     */
    void write(Level level, String logger, String message, Throwable thrown) {
        String line = format == Format.JSON
                ? json(level, logger, message, MDC.getCopyOfContextMap(), thrown)
                : text(level, logger, message, MDC.get(LogFields.REQUEST_ID), MDC.get(LogFields.PRINCIPAL),
                        MDC.get(LogFields.TRACE_ID), thrown);
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        try {
            sink.write(bytes, 0, bytes.length);
        } catch (java.io.IOException e) {
            // Standard output is gone (a closed pipe): nothing is left to tell.
        }
    }

    /**
     * {@code [requestId principal trace=traceId]} before the logger when a request is being served; the principal and
     * the trace (when tracing is on) may be null.
     */
    String text(Level level, String logger, String message, String requestId, String principal, String traceId,
                Throwable thrown) {
        var line = new StringBuilder(96).append(timestamps.now()).append(' ').append(level).append(' ');
        if (requestId != null) {
            line.append('[').append(requestId);
            if (principal != null) {
                appendNeutral(line.append(' '), principal);
            }
            if (traceId != null) {
                line.append(" trace=").append(traceId);
            }
            line.append("] ");
        }
        line.append(logger, logger.lastIndexOf('.') + 1, logger.length()).append(" - ");
        appendNeutral(line, message).append(System.lineSeparator());
        if (thrown != null) {
            line.append(stackTrace(thrown));
        }
        return line.toString();
    }

    /**
     * Appends {@code text} with every character that could end, overwrite or reorder a line in a terminal or a log
     * viewer written as an escape ({@code \n}, {@code \u0085}): C0 and C1 controls, DEL, the line and paragraph
     * separators and the bidirectional controls. A message can quote a client (a path), and a client must not be able
     * to forge or disguise a line.
     */
    static StringBuilder appendNeutral(StringBuilder line, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isNeutral(c)) {
                switch (c) {
                    case '\n' -> line.append("\\n");
                    case '\r' -> line.append("\\r");
                    case '\t' -> line.append("\\t");
                    default -> line.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf])
                            .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                }
            } else {
                line.append(c);
            }
        }
        return line;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static boolean isNeutral(char c) {
        if (c < 0x80) {
            return c >= 0x20 && c != 0x7f;
        }
        return c > 0x9f && c != 0x061c && c != 0x200e && c != 0x200f && (c < 0x2028 || c > 0x202e)
                && (c < 0x2066 || c > 0x2069);
    }

    String json(Level level, String logger, String message, Map<String, String> context, Throwable thrown) {
        var line = new StringBuilder(160).append('{');
        field(line, "time", timestamps.now()).append(',');
        field(line, "level", level.name()).append(',');
        field(line, "logger", logger).append(',');
        field(line, "message", message);
        if (context != null && !context.isEmpty()) {
            context.forEach((key, value) -> {
                line.append(',');
                if (ContextField.NUMERIC.contains(key)) {
                    quoted(line, key).append(':').append(value);
                } else {
                    field(line, key, value);
                }
            });
        }
        if (thrown != null) {
            line.append(',');
            field(line, "exception", stackTrace(thrown));
        }
        return line.append('}').append(System.lineSeparator()).toString();
    }

    /** The MDC keys whose values are numbers and are written as JSON numbers. */
    static final class ContextField {
        static final java.util.Set<String> NUMERIC = java.util.Set.of(LogFields.STATUS, LogFields.DURATION_MS);

        private ContextField() {
        }
    }

    private static StringBuilder field(StringBuilder line, String name, String value) {
        return quoted(quoted(line, name).append(':'), value);
    }

    private static StringBuilder quoted(StringBuilder line, String text) {
        line.append('"');
        JsonStringEncoder.getInstance().quoteAsString(text, line);
        return line.append('"');
    }

    private static String stackTrace(Throwable thrown) {
        var trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    /** ISO-8601 local time to the millisecond, formatted once per millisecond however many lines share it. */
    static final class Timestamps {

        private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

        private record Formatted(long epochMillis, String text) {
        }

        private final DateTimeFormatter format;
        private volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

        Timestamps(ZoneId zone) {
            this.format = FORMAT.withZone(zone);
        }

        String now() {
            return at(System.currentTimeMillis());
        }

        String at(long epochMillis) {
            Formatted formatted = last;
            if (formatted.epochMillis() != epochMillis) {
                formatted = new Formatted(epochMillis, format.format(Instant.ofEpochMilli(epochMillis)));
                last = formatted;
            }
            return formatted.text();
        }
    }
}
