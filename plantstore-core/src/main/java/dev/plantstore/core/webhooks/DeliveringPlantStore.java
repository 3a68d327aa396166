package dev.plantstore.core.webhooks;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.forwarding.ForwardingPlantStore;
import java.util.Optional;

/**
 * A store that records events, with the delivery that sends them. Each write passes the delivery's admission first
 * ({@link Delivery#awaitRoom}), in front of the store, so the store itself never waits for its delivery; closing the
 * store stops the delivery first. Reads and the health check are the store's alone, so a receiver that is down never
 * makes the store look unavailable.
 */
public final class DeliveringPlantStore extends ForwardingPlantStore {

    private final Delivery delivery;

    public DeliveringPlantStore(PlantStore store, Delivery delivery) {
        super(store);
        this.delivery = delivery;
    }

    @Override
    protected CreateResult create(NewPlant plant, Optional<TraceContext> trace) {
        delivery.awaitRoom();
        return forward(plant, trace);
    }

    @Override
    protected boolean delete(long id, Optional<TraceContext> trace) {
        delivery.awaitRoom();
        return forward(id, trace);
    }

    @Override
    public void close() {
        delivery.close();
        super.close();
    }
}
