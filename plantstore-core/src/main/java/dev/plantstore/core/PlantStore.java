package dev.plantstore.core;

import java.util.Objects;
import java.util.Optional;

/**
 * Keeps plants by id. Safe for any number of threads, each operation atomic: of concurrent creates of one id exactly
 * one is {@link CreateResult.Created}, of concurrent deletes exactly one returns {@code true}. A store backed by
 * something outside the process throws {@link StoreUnavailableException} when that cannot be reached.
 * {@link PlantStores} opens one.
 *
 * <pre>{@code
 * PlantStore store = PlantStores.inMemory();
 * CreateResult result = store.create(new NewPlant(1, "Monstera", "aroid"));
 * }</pre>
 */
public interface PlantStore extends AutoCloseable {

    /**
     * Adds the plant unless its id is taken; a taken id leaves the stored plant as it was. An id that holds exactly
     * this plant answers {@link CreateResult.AlreadyStored}, so that a retried create can tell its own plant from
     * another.
     */
    CreateResult create(NewPlant plant);

    /**
     * As {@link #create(NewPlant)}, within the trace {@code trace}: a store that records webhook events keeps it with
     * the event, so that the event's delivery joins the trace. Other stores ignore it, as this default does: a store
     * that wraps another overrides it to pass {@code trace} on.
     */
    default CreateResult create(NewPlant plant, TraceContext trace) {
        Objects.requireNonNull(trace, "null trace");
        return create(plant);
    }

    /** Removes the plant with this id; {@code true} when there was one. A deleted id may be created again. */
    boolean delete(long id);

    /** As {@link #delete(long)}, within the trace {@code trace}, as {@link #create(NewPlant, TraceContext)} says. */
    default boolean delete(long id, TraceContext trace) {
        Objects.requireNonNull(trace, "null trace");
        return delete(id);
    }

    /** The plant stored under this id, if any. */
    Optional<Plant> find(long id);

    /**
     * Whether the store can serve requests now; a database-backed store checks its connection. Answers within a
     * bounded time and never throws.
     */
    default boolean isAvailable() {
        return true;
    }

    /**
     * Releases what the store holds (threads, connections). A database store's operations after {@code close} fail;
     * the memory store holds nothing to release and keeps working.
     */
    @Override
    default void close() {
    }
}
