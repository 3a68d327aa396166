package dev.plantstore.http;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import java.util.Optional;

/** In memory, with a switch that makes it behave as an unreachable database does: unavailable, every call refused. */
final class SwitchableStore implements PlantStore {

    private final PlantStore plants = PlantStores.inMemory();
    private volatile boolean down;

    void setDown(boolean down) {
        this.down = down;
    }

    private void requireUp() {
        if (down) {
            throw new StoreUnavailableException("connection refused by db.internal:5432");
        }
    }

    @Override
    public CreateResult create(NewPlant plant) {
        requireUp();
        return plants.create(plant);
    }

    @Override
    public boolean delete(long id) {
        requireUp();
        return plants.delete(id);
    }

    @Override
    public Optional<Plant> find(long id) {
        requireUp();
        return plants.find(id);
    }

    @Override
    public boolean isAvailable() {
        return !down;
    }
}
