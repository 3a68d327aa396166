package dev.plantstore.core;

import java.net.URI;
import java.time.Duration;

/**
 * Told of each webhook delivery attempt and of each receiver's backlog, for metrics. Called on the delivery threads,
 * so it must be quick and thread-safe; what it throws is logged and changes no delivery.
 */
public interface WebhookListener {

    /** A listener that does nothing. */
    WebhookListener NONE = new WebhookListener() {
    };

    /** What became of one attempt to deliver one event. */
    enum Outcome {
        /** The receiver answered 2xx in time: the event is done. */
        DELIVERED,
        /** Any other answer, no answer in time, or no connection: the event will be tried again. */
        FAILED,
        /**
         * It failed, and the event was older than the retry period: it is not tried again; a database store keeps it
         * for an operator, the memory store drops it.
         */
        UNDELIVERABLE
    }

    /** One attempt to deliver an event to {@code receiver} ended so. */
    default void attempted(URI receiver, Outcome outcome) {
    }

    /**
     * An event reached {@code receiver} (its 2xx arrived) {@code sinceWrite} after the write it reports was recorded
     * (as the write's batch began, a moment before its commit; the event's {@code timestamp}): the lag a receiver
     * sees, retries included.
     */
    default void delivered(URI receiver, Duration sinceWrite) {
    }

    /**
     * {@code receiver} has {@code pending} events waiting (those of every instance sharing the database), the oldest
     * recorded {@code oldestAgeMillis} ago (0 when none waits). Told every second; the count is refreshed every five.
     */
    default void backlog(URI receiver, long pending, long oldestAgeMillis) {
    }

    /**
     * {@code receiver} is turned off ({@code off}), having answered {@code 410 Gone}, or on: told when a delivery
     * starts and whenever that changes.
     */
    default void turnedOff(URI receiver, boolean off) {
    }
}
