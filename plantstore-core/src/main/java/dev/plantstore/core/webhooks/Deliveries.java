package dev.plantstore.core.webhooks;

import java.util.List;

/**
 * The deliveries of several providers run as one: a write is admitted once each has room, or its bound ran out, and
 * closing stops each, one failing to stop keeping no other running.
 */
final class Deliveries implements Delivery {

    private final List<Delivery> deliveries;

    Deliveries(List<Delivery> deliveries) {
        this.deliveries = List.copyOf(deliveries);
    }

    @Override
    public void awaitRoom() {
        deliveries.forEach(Delivery::awaitRoom);
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (Delivery delivery : deliveries) {
            try {
                delivery.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
