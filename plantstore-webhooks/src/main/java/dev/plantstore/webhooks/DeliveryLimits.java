package dev.plantstore.webhooks;

import java.time.Duration;

/** The bounds every receiver's delivery keeps, which the classes that send, pace and start it share. */
final class DeliveryLimits {

    /** Requests in flight to one receiver at most, and so the most events one claim takes. */
    static final int IN_FLIGHT = 128;
    /**
     * Events recorded and not yet sent to a receiver, beyond which writes wait: more than the requests in flight, so
     * that the connections stay busy.
     */
    static final int UNSENT_ROOM = 4 * IN_FLIGHT;
    /** How long an attempt may take, from the name lookup to the answer's last byte, before it counts as failed. */
    static final Duration ATTEMPT_DEADLINE = Duration.ofSeconds(10);

    private DeliveryLimits() {
    }
}
