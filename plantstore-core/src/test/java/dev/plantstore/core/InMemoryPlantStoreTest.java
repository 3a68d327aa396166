package dev.plantstore.core;

class InMemoryPlantStoreTest extends PlantStoreContract {

    @Override
    protected PlantStore newStore() {
        return PlantStore.inMemory();
    }
}
