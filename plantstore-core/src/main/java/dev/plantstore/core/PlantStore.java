package dev.plantstore.core;

import java.util.Optional;

/**
 * Keeps plants by id. Implementations are safe for concurrent use by any number of threads, and each operation is
 * atomic: of many concurrent creates of one id exactly one is {@link CreateResult.Created}, and of many concurrent
 * deletes of one id exactly one returns {@code true}.
 *
 * <pre>{@code
 * PlantStore store = PlantStore.inMemory();
 * CreateResult result = store.create(new NewPlant(1, "Monstera", "aroid"));
 * if (result instanceof CreateResult.Duplicate duplicate) {
 *     alreadyThere(duplicate.id());
 * }
 * }</pre>
 */
public interface PlantStore {

    /** Adds the plant unless its id is taken; a taken id leaves the stored plant as it was. */
    CreateResult create(NewPlant plant);

    /** Removes the plant with this id; {@code true} when there was one. A deleted id may be created again. */
    boolean delete(long id);

    /** The plant stored under this id, if any. */
    Optional<Plant> find(long id);

    /** A store that keeps its plants in this process's memory: fast, lock-free for reads, and gone on exit. */
    static PlantStore inMemory() {
        return new InMemoryPlantStore();
    }
}
