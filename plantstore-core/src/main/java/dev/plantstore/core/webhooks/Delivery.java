package dev.plantstore.core.webhooks;

/**
 * A running delivery: it subscribes to the events a store publishes ({@link CommittedEvents}), admits the writes in
 * front of the store, and stops when closed.
 */
public interface Delivery extends AutoCloseable {

    /**
     * Admission, called in front of a write, before it reaches the store: returns once the delivery has room for the
     * write's events, or after a short bound. Delivery that keeps pace with a receiver so holds the writes to the rate
     * it sends at, where it would otherwise fall behind.
     */
    void awaitRoom();

    /**
     * Stops delivering. Delivered events leave the outbox; events in flight stay leased and are tried again once their
     * lease ends, by the store's next run or another instance.
     */
    @Override
    void close();
}
