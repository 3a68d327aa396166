package dev.plantstore.core.webhooks;

import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import java.util.Optional;

/**
 * One event for one receiver, as the outbox holds it until it is delivered or given up on.
 *
 * @param seq              its place in the outbox, unique and never reused: later writes of a plant id get larger ones
 * @param plant            the plant created; null for a delete
 * @param recordedAtMillis when the write that it reports was recorded: as its batch began, a moment before the commit
 * @param attempts         how many deliveries of it have failed so far
 * @param leasedUntilMillis until when the process that holds it may send it without another taking it; 0 when free
 * @param retryFromMillis  when its retry period began: its write, or an operator's redelivery since
 * @param trace            the trace of the write that it reports, when that write had one
 */
public record PlantEvent(long seq, String receiver, long plantId, String type, Plant plant, long recordedAtMillis,
                  int attempts, long leasedUntilMillis, long retryFromMillis, Optional<TraceContext> trace) {

    public static final String CREATED = "plant.created";
    public static final String DELETED = "plant.deleted";

    /**
     * The event's id, the same on every attempt, by which a receiver or a consumer tells a resend from news: the
     * webhook's {@code webhook-id} and the Kafka record's {@code ce_id}.
     */
    public String messageId() {
        return "msg_" + seq;
    }

    /**
     * What the event says of its plant, as JSON, the same for every destination: the webhook body's {@code data} and
     * the Kafka record's value. {@code {"id":1,"name":"Monstera","tag":"aroid"}}; a deleted plant's holds its id alone,
     * and an absent tag is left out.
     */
    public String dataJson() {
        String id = "{\"id\":" + plantId;
        if (plant == null) {
            return id + "}";
        }
        // The plant's object always holds its name: its fields follow the id.
        return id + "," + plant.toJson().substring(1);
    }
}
