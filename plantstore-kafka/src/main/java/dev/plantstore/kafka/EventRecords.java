package dev.plantstore.kafka;

import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.PlantEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * An event as its Kafka record, by the CloudEvents 1.0 Kafka protocol binding in binary content mode: the key is the
 * plant's id in decimal, so one plant's events share a partition and keep their order; the value is the event's
 * {@code data}, the same JSON object a webhook's body carries; the attributes are {@code ce_} headers, and the write's
 * W3C trace context, when it had one, rides along as {@code traceparent} and {@code tracestate}. The record's
 * timestamp is the write's time too.
 */
final class EventRecords {

    /** The CloudEvents {@code source} of every event: this service's plants. */
    static final String SOURCE = "/plantstore/plants";

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final String topic;

    EventRecords(String topic) {
        this.topic = topic;
    }

    ProducerRecord<String, byte[]> record(PlantEvent event) {
        List<Header> headers = new ArrayList<>(8);
        headers.add(header("ce_specversion", "1.0"));
        headers.add(header("ce_id", event.messageId()));
        headers.add(header("ce_source", SOURCE));
        headers.add(header("ce_type", event.type()));
        headers.add(header("ce_time", TIME.format(Instant.ofEpochMilli(event.recordedAtMillis()))));
        headers.add(header("content-type", "application/json"));
        if (event.trace().isPresent()) {
            TraceContext trace = event.trace().get();
            headers.add(header("traceparent", trace.traceparent()));
            trace.tracestate().ifPresent(state -> headers.add(header("tracestate", state)));
        }
        return new ProducerRecord<>(topic, null, event.recordedAtMillis(), Long.toString(event.plantId()),
                event.dataJson().getBytes(StandardCharsets.UTF_8), headers);
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
