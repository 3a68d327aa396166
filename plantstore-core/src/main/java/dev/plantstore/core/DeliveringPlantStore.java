package dev.plantstore.core;

import java.util.Optional;

/**
 * A store that records events, with the delivery that sends them: a write that took effect wakes the delivery, and
 * closing the store stops the delivery first. Reads and the health check are the store's alone, so a receiver that is
 * down never makes the store look unavailable.
 */
final class DeliveringPlantStore implements PlantStore {

    private final PlantStore store;
    private final WebhookDelivery delivery;

    DeliveringPlantStore(PlantStore store, WebhookDelivery delivery) {
        this.store = store;
        this.delivery = delivery;
    }

    @Override
    public CreateResult create(NewPlant plant) {
        CreateResult result = store.create(plant);
        if (result instanceof CreateResult.Created) {
            delivery.wake();
        }
        return result;
    }

    @Override
    public boolean delete(long id) {
        boolean removed = store.delete(id);
        if (removed) {
            delivery.wake();
        }
        return removed;
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
