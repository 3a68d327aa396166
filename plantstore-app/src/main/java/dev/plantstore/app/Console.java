package dev.plantstore.app;

import dev.plantstore.core.threads.DaemonThreads;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The server's standard output, made cheap enough for one access line per request. Two costs were a fifth of the
 * server's throughput under load: the JVM's {@code System.out} makes a system call for every line, and slf4j-simple
 * (the backend then) formatted every line's time with one {@code SimpleDateFormat} under a lock. Here output is
 * buffered and flushed every {@link #FLUSH_INTERVAL_MILLIS} ms, and log lines ({@link LogLines}) get their time stamp
 * from {@link LogLines.Timestamps}, which formats once per millisecond. Lines reach the output at most that interval
 * late; the launcher flushes its own lines at once.
 */
final class Console {

    static final long FLUSH_INTERVAL_MILLIS = 100;
    private static final int BUFFER_BYTES = 64 * 1024;

    private final PrintStream stream;
    private final LogLines logLines;

    private Console(PrintStream stream, LogLines logLines) {
        this.stream = stream;
        this.logLines = logLines;
    }

    /**
     * Sends log lines, written in {@code format}, to a buffered standard output, replaces {@code System.out} with a
     * stream into the same buffer that time-stamps each line, and starts the flushing. The returned console writes the
     * launcher's own lines into the same buffer, as they are. Called once, at start-up.
     */
    static Console install(LogLines.Format format) {
        var buffer = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), BUFFER_BYTES);
        var timestamps = new LogLines.Timestamps(ZoneId.systemDefault());
        var printed = new TimestampedLines(buffer, timestamps);
        System.setOut(printed);
        var logLines = new LogLines(buffer, format, timestamps);
        LogLines.use(logLines);
        routeJavaUtilLogging();
        ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(
                DaemonThreads.named("plantstore-console-flush"));
        flusher.scheduleWithFixedDelay(printed::flushNow, FLUSH_INTERVAL_MILLIS, FLUSH_INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
        return new Console(new PrintStream(buffer, false, StandardCharsets.UTF_8), logLines);
    }

    /** Libraries that log through java.util.logging (the PostgreSQL driver) write the server's lines too. */
    static void routeJavaUtilLogging() {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
    }

    /**
     * Writes one line and flushes it, so that whoever waits for it sees it now. With JSON logs it is a log line of its
     * own, so that a collector reads every line of the output alike.
     */
    void println(String line) {
        if (logLines.format() == LogLines.Format.JSON) {
            logLines.write(org.slf4j.event.Level.INFO, "dev.plantstore.app", line, null);
        } else {
            // One write of the whole line: a log line written at the same time cannot land in the middle of it.
            stream.print(line + System.lineSeparator());
        }
        stream.flush();
    }

    /** The usage text, as it is. */
    void print(String text) {
        stream.print(text);
        stream.flush();
    }

    /** Flushes whatever is buffered, log lines included. */
    void flush() {
        stream.flush();
    }

    /**
     * A stream whose every {@code println(String)} starts with the time, and which leaves flushing to the console's
     * schedule: what a library prints to {@code System.out} lands among the log lines, in the same shape.
     */
    static final class TimestampedLines extends PrintStream {

        private final LogLines.Timestamps timestamps;

        TimestampedLines(OutputStream out, LogLines.Timestamps timestamps) {
            super(out, false, StandardCharsets.UTF_8);
            this.timestamps = timestamps;
        }

        /**
         * A caller flushing after every line would make a system call per line (slf4j-simple did, under its one global
         * lock, for every access line). Lines stay in the buffer until {@link #flushNow}, at most 100 ms.
         */
        @Override
        public void flush() {
        }

        /** Writes out whatever is buffered. */
        void flushNow() {
            super.flush();
        }

        /** Encodes the line itself and writes it in one call: PrintStream's character path costs more, line by line. */
        @Override
        public void println(String line) {
            byte[] bytes = (timestamps.now() + ' ' + line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
            write(bytes, 0, bytes.length);
        }
    }
}
