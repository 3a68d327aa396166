package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** How an event's request goes out of the process: one attempt at a time per call, its outcome told exactly once. */
interface Transport extends AutoCloseable {

    /** What one attempt came to. */
    sealed interface Outcome {

        /**
         * A complete, well-formed answer to this event's own request, with this status; {@code retryAfter} is how long
         * a {@code 429} or {@code 503} asked the sender to wait ({@code Retry-After}), never negative.
         */
        record Answered(int status, Optional<Duration> retryAfter) implements Outcome {

            public Answered {
                Objects.requireNonNull(retryAfter, "null retryAfter");
            }

            /** An answer that asked for no wait. */
            public Answered(int status) {
                this(status, Optional.empty());
            }
        }

        /** No usable answer: why, never with the answer's body. */
        record Failed(String reason) implements Outcome {
        }
    }

    /** Hears how an attempt ended, on a thread of the transport's. */
    interface Ended {
        void ended(PlantEvent event, Outcome outcome);
    }

    /**
     * Sends {@code request} for {@code event} to the receiver and tells {@code ended} once how it went, within the
     * transport's deadline. May tell it before returning.
     */
    void send(PlantEvent event, SignedRequest request, Ended ended);

    /**
     * Gives back what this receiver's transport holds alone; what the transports share (a client and its
     * connections) closes with them ({@link Transports#close}), and attempts still running then end failed or are
     * abandoned, their events leased.
     */
    @Override
    void close();
}
