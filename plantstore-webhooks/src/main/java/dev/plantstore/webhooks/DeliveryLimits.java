package dev.plantstore.webhooks;

import java.time.Duration;

/** The bounds every receiver's delivery keeps, which the classes that send, pace and start it share. */
final class DeliveryLimits {

    /** Requests in flight to one receiver at most, and so the most events one claim takes. */
    static final int IN_FLIGHT = 128;
    /** How long an attempt may take, from the name lookup to the answer's last byte, before it counts as failed. */
    static final Duration ATTEMPT_DEADLINE = Duration.ofSeconds(10);

    private DeliveryLimits() {
    }
}
