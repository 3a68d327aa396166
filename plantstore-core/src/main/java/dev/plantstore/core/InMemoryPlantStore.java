package dev.plantstore.core;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@link PlantStore} on a {@link ConcurrentHashMap}: {@code putIfAbsent} and {@code remove} give the atomic
 * create-once and delete-once the interface promises without a lock of our own. Reads never lock; a write
 * compare-and-sets into an empty bin and locks only its one bin when two ids share it.
 *
 * <p>Plants are kept packed ({@link PackedPlant}), with tags shared through {@link SharedTags}: at a million plants
 * with short names that is about half the heap of a map of {@link Plant} records.
 */
final class InMemoryPlantStore implements PlantStore {

    /** Enough for any realistic set of plant types; beyond it, tags are kept with each plant. */
    static final int SHARED_TAG_CAPACITY = 1024;

    private final ConcurrentMap<Long, byte[]> plants = new ConcurrentHashMap<>();
    private final SharedTags sharedTags = new SharedTags(SHARED_TAG_CAPACITY);

    @Override
    public CreateResult create(NewPlant newPlant) {
        Objects.requireNonNull(newPlant, "null newPlant");
        Plant plant = newPlant.plant();
        if (plants.putIfAbsent(newPlant.id(), PackedPlant.pack(plant, sharedTags)) == null) {
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
        return Optional.ofNullable(plants.get(id)).map(packed -> PackedPlant.unpack(packed, sharedTags));
    }
}
