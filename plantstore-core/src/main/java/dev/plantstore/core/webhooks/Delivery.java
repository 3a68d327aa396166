package dev.plantstore.core.webhooks;

/** A running delivery: it takes the events of committed batches, paces the writes, and stops when closed. */
public interface Delivery extends RecordedEvents, AutoCloseable {

    /**
     * Stops delivering. Delivered events leave the outbox; events in flight stay leased and are tried again once their
     * lease ends, by the store's next run or another instance.
     */
    @Override
    void close();
}
