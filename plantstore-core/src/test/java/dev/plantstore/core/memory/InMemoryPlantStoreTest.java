package dev.plantstore.core.memory;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStoreContract;
import dev.plantstore.core.PlantStores;

class InMemoryPlantStoreTest extends PlantStoreContract {

    @Override
    protected PlantStore newStore() {
        return PlantStores.inMemory();
    }
}
