package dev.plantstore.http;

import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import java.util.Optional;

/**
 * A store that adds something to the API's writes (metrics, traces) and passes the rest to the store it wraps: the API
 * never finds, and the health check and closing are the wrapped store's.
 */
abstract class ForwardingPlantStore implements PlantStore {

    final PlantStore store;

    ForwardingPlantStore(PlantStore store) {
        this.store = store;
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
        store.close();
    }
}
