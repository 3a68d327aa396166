package dev.plantstore.core.webhooks;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TraceContext;
import java.util.Optional;

/**
 * A store that records events, with the delivery that sends them. Each write passes the delivery's admission first
 * ({@link Delivery#awaitRoom}), in front of the store, so the store itself never waits for its delivery; closing the
 * store stops the delivery first. Reads and the health check are the store's alone, so a receiver that is down never
 * makes the store look unavailable.
 */
public final class DeliveringPlantStore implements PlantStore {

    private final PlantStore store;
    private final Delivery delivery;

    public DeliveringPlantStore(PlantStore store, Delivery delivery) {
        this.store = store;
        this.delivery = delivery;
    }

    @Override
    public CreateResult create(NewPlant plant) {
        delivery.awaitRoom();
        return store.create(plant);
    }

    @Override
    public CreateResult create(NewPlant plant, TraceContext trace) {
        delivery.awaitRoom();
        return store.create(plant, trace);
    }

    @Override
    public boolean delete(long id) {
        delivery.awaitRoom();
        return store.delete(id);
    }

    @Override
    public boolean delete(long id, TraceContext trace) {
        delivery.awaitRoom();
        return store.delete(id, trace);
    }

    @Override
    public Optional<Plant> find(long id) {
        return store.find(id);
    }

    @Override
    public boolean isAvailable() {
        return store.isAvailable();
    }

    @Override
    public void close() {
        delivery.close();
        store.close();
    }
}
