package dev.plantstore.core;

import java.util.Objects;
import java.util.Optional;

/**
 * {@link PlantStore} in this process's memory. {@link PlantTable}'s {@code putIfAbsent} and {@code remove} are atomic
 * under the lock of the id's segment, which gives the create-once and delete-once the interface promises.
 *
 * <p>Plants are kept packed ({@link PackedPlant}), with tags shared through {@link SharedTags}, in a table of
 * primitive ids: at a million plants with short names that is about a quarter of the heap of a
 * {@code ConcurrentHashMap} of {@link Plant} records, and one object per plant for the garbage collector to copy.
 */
final class InMemoryPlantStore implements PlantStore {

    /** Enough for any realistic set of plant types; beyond it, tags are kept with each plant. */
    static final int SHARED_TAG_CAPACITY = 1024;

    private final PlantTable plants = new PlantTable();
    private final SharedTags sharedTags = new SharedTags(SHARED_TAG_CAPACITY);

    @Override
    public CreateResult create(NewPlant newPlant) {
        Objects.requireNonNull(newPlant, "null newPlant");
        Plant plant = newPlant.plant();
        byte[] stored = plants.putIfAbsent(newPlant.id(), PackedPlant.pack(plant, sharedTags));
        if (stored == null) {
            return new CreateResult.Created(plant);
        }
        // A packed plant is never changed once stored, so the one that refused this create is still what it holds.
        Plant existing = PackedPlant.unpack(stored, sharedTags);
        return existing.equals(plant) ? new CreateResult.AlreadyStored(existing) : new CreateResult.Duplicate(newPlant.id());
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
