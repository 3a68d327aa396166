package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.RecordingLogger;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A repeating failure is logged when it starts, summarised while it lasts and logged when it ends. */
class FaultLogTest {

    private final RecordingLogger recording = new RecordingLogger();
    private final AtomicLong nanos = new AtomicLong();
    private final FaultLog log = new FaultLog(recording, "plant store writes", nanos::get);

    @Test
    void aThousandFailuresInAMinuteAreAFewLines() {
        for (int i = 0; i < 1_000; i++) {
            nanos.addAndGet(Duration.ofMillis(60).toNanos());
            log.failed(new SQLException("disk full"), true);
        }
        log.succeeded();

        List<RecordingLogger.Line> lines = recording.lines();
        assertEquals(3, lines.size(), "a start, one summary after 30 s, an end: " + lines);
        assertEquals("plant store writes failing: disk full", lines.get(0).message());
        assertTrue(lines.get(1).message()
                .startsWith("plant store writes still failing: 500 more failures, 501 in 30.0 s"), lines.toString());
        assertTrue(lines.get(1).message().endsWith("; last: disk full"), lines.toString());
        assertEquals("plant store writes working again after 59.9 s and 1000 failures", lines.get(2).message());
        assertEquals(System.Logger.Level.INFO, lines.get(2).level());
        lines.forEach(line -> assertNull(line.thrown(), "an expected failure needs no stack trace"));
    }

    @Test
    void anUnexpectedExceptionCarriesOneStackTracePerFault() {
        log.failed(new IllegalStateException("bug"), false);
        log.failed(new IllegalStateException("bug"), false);
        log.succeeded();
        log.failed(new IllegalStateException("bug again"), false);

        List<RecordingLogger.Line> lines = recording.lines();
        assertEquals(3, lines.size(), lines.toString());
        assertNotNull(lines.get(0).thrown());
        assertNotNull(lines.get(2).thrown(), "a new fault may carry its own trace");
    }

    @Test
    void aSuccessWithoutAFaultLogsNothing() {
        log.succeeded();
        assertEquals(List.of(), recording.lines());
    }

    @Test
    void theReasonNamesTheCausesOnceWithoutClassNames() {
        var failure = new RuntimeException("could not commit", new SQLException("disk full"));
        assertEquals("could not commit: disk full", FaultLog.reason(failure));
        assertEquals("NullPointerException", FaultLog.reason(new NullPointerException()));
    }
}
