package dev.plantstore.app;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** ISO-8601 local time to the millisecond, formatted once per millisecond however many lines share it. */
final class Timestamps {

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
