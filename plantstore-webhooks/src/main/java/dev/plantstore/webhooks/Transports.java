package dev.plantstore.webhooks;

import java.net.URI;

/** Where the delivery's transports come from: one per receiver, and what they share, closed with the delivery. */
@FunctionalInterface
interface Transports extends AutoCloseable {

    Transport to(URI receiver);

    /** Closes what the transports share, once every receiver's worker has stopped; by default nothing. */
    @Override
    default void close() {
    }
}
