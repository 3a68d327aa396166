package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ConsoleTest {

    private static final long NOON_UTC = 1_795_348_800_000L;

    @Test
    void timestampsAreIsoLocalTimeToTheMillisecond() {
        assertEquals("2026-11-22T12:00:00.007Z", new LogLines.Timestamps(ZoneOffset.UTC).at(NOON_UTC + 7));
        assertEquals("2026-11-22T13:00:00.007+01:00",
                new LogLines.Timestamps(ZoneId.of("Europe/Paris")).at(NOON_UTC + 7));
    }

    @Test
    void linesWithinOneMillisecondShareOneFormattedTimestamp() {
        var timestamps = new LogLines.Timestamps(ZoneOffset.UTC);
        String first = timestamps.at(NOON_UTC);
        assertSame(first, timestamps.at(NOON_UTC));
        assertEquals("2026-11-22T12:00:00.001Z", timestamps.at(NOON_UTC + 1));
    }

    @Test
    void everyLoggedLineStartsWithTheTime() {
        var sink = new ByteArrayOutputStream();
        var lines = new Console.TimestampedLines(sink, new LogLines.Timestamps(ZoneOffset.UTC));
        lines.println("INFO access - POST /plants 200 0.4ms");
        lines.flushNow();
        String written = sink.toString(StandardCharsets.UTF_8);
        assertTrue(written.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"
                + " INFO access - POST /plants 200 0\\.4ms" + System.lineSeparator()), written);
    }

    @Test
    void aLoggersFlushLeavesTheLineBufferedUntilTheConsolesOwnFlush() {
        var sink = new ByteArrayOutputStream();
        var lines = new Console.TimestampedLines(new java.io.BufferedOutputStream(sink, 1024),
                new LogLines.Timestamps(ZoneOffset.UTC));
        lines.println("INFO access - DELETE /plants/1 204 0.2ms");
        lines.flush();
        assertEquals(0, sink.size());
        lines.flushNow();
        assertTrue(sink.toString(StandardCharsets.UTF_8)
                .endsWith("DELETE /plants/1 204 0.2ms" + System.lineSeparator()));
    }
}
