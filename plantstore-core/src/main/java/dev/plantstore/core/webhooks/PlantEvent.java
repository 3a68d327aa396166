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
}
