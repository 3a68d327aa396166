package dev.plantstore.core;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@link PlantStore} on a {@link ConcurrentHashMap}: {@code putIfAbsent} and {@code remove} give the atomic
 * create-once and delete-once the interface promises without a lock of our own. Reads never lock; a write
 * compare-and-sets into an empty bin and locks only its one bin when two ids share it.
 */
final class InMemoryPlantStore implements PlantStore {

    private final ConcurrentMap<Long, Plant> plants = new ConcurrentHashMap<>();

    @Override
    public CreateResult create(NewPlant newPlant) {
        Objects.requireNonNull(newPlant, "null newPlant");
        Plant plant = newPlant.plant();
        if (plants.putIfAbsent(newPlant.id(), plant) == null) {
            return new CreateResult.Created(plant);
        }
        return new CreateResult.Duplicate(newPlant.id());
    }

    @Override
    public boolean delete(long id) {
        return plants.remove(id) != null;
    }

    @Override
    public Optional<Plant> find(long id) {
        return Optional.ofNullable(plants.get(id));
    }
}
