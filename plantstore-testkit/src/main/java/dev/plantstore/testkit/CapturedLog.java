package dev.plantstore.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one {@code java.util.logging} logger (where a {@code System.Logger} writes when no other backend is
 * installed) publishes from the moment it is captured until it is closed, in their order.
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord captured) {
            records.add(captured);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(String loggerName) {
        // Held here: java.util.logging keeps its loggers only weakly, and a collected one would lose the handler.
        logger = Logger.getLogger(loggerName);
        logger.addHandler(capture);
    }

    /** Starts capturing what the logger of this name publishes. */
    public static CapturedLog of(String loggerName) {
        return new CapturedLog(loggerName);
    }

    /** What was published so far. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** The messages published so far that contain {@code text}. */
    public List<String> messagesWith(String text) {
        return records.stream().map(LogRecord::getMessage).filter(message -> message.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(capture);
    }
}
