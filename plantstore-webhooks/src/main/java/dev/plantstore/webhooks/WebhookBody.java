package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.PlantEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * An event as the receiver gets it:
 * <pre>{@code
 * {"type":"plant.created","timestamp":"2026-11-23T10:00:00.000Z","data":{"id":1,"name":"Monstera","tag":"aroid"}}
 * }</pre>
 * A deleted plant's data holds its id alone, and an absent tag is left out. The timestamp is the event's recorded
 * time: taken as the batch that wrote it began, and stored with it, so every attempt sends the same bytes.
 */
final class WebhookBody {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private WebhookBody() {
    }

    static byte[] of(PlantEvent event) {
        var json = new StringBuilder(128);
        json.append("{\"type\":\"").append(event.type()).append("\",\"timestamp\":\"")
                .append(TIMESTAMP.format(Instant.ofEpochMilli(event.recordedAtMillis())))
                .append("\",\"data\":{\"id\":").append(event.plantId());
        if (event.plant() != null) {
            json.append(",\"name\":");
            string(json, event.plant().name());
            if (event.plant().tag() != null) {
                json.append(",\"tag\":");
                string(json, event.plant().tag());
            }
        }
        return json.append("}}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void string(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
