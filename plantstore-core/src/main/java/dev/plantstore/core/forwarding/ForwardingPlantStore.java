package dev.plantstore.core.forwarding;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TraceContext;
import java.util.Optional;

/**
 * A store that adds something to another's writes (metrics, traces) and passes everything on to it. Each write, with
 * a trace context or without, reaches a wrapper through one method that is handed the context, and a wrapper passes
 * the write on through {@link #forward}: so no wrapper can drop a trace it was given, and wrappers nest in any order.
 * Finds, the health check and closing are the wrapped store's.
 */
public abstract class ForwardingPlantStore implements PlantStore {

    private final PlantStore store;

    protected ForwardingPlantStore(PlantStore store) {
        this.store = store;
    }

    @Override
    public final CreateResult create(NewPlant plant) {
        return create(plant, Optional.empty());
    }

    @Override
    public final CreateResult create(NewPlant plant, TraceContext trace) {
        return create(plant, Optional.of(trace));
    }

    /** The create as this wrapper does it; by default passed on as it came. */
    protected CreateResult create(NewPlant plant, Optional<TraceContext> trace) {
        return forward(plant, trace);
    }

    @Override
    public final boolean delete(long id) {
        return delete(id, Optional.empty());
    }

    @Override
    public final boolean delete(long id, TraceContext trace) {
        return delete(id, Optional.of(trace));
    }

    /** The delete as this wrapper does it; by default passed on as it came. */
    protected boolean delete(long id, Optional<TraceContext> trace) {
        return forward(id, trace);
    }

    /** The create passed on to the wrapped store, within {@code trace} when there is one. */
    protected final CreateResult forward(NewPlant plant, Optional<TraceContext> trace) {
        return trace.isPresent() ? store.create(plant, trace.get()) : store.create(plant);
    }

    /** The delete passed on to the wrapped store, within {@code trace} when there is one. */
    protected final boolean forward(long id, Optional<TraceContext> trace) {
        return trace.isPresent() ? store.delete(id, trace.get()) : store.delete(id);
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
