package dev.plantstore.core.memory;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStoreContract;

class InMemoryPlantStoreTest extends PlantStoreContract {

    @Override
    protected PlantStore newStore() {
        return PlantStore.inMemory();
    }
}
