package dev.plantstore.http;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.forwarding.ForwardingPlantStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A store that times each create and delete by its outcome ({@value #OPERATIONS}): how often the store is used, how
 * long it takes, and how often it fails. Finds are not timed: the API never finds.
 */
final class MeteredPlantStore extends ForwardingPlantStore {

    static final String OPERATIONS = "plantstore.store.operations";

    private final Timer created;
    private final Timer alreadyStored;
    private final Timer duplicate;
    private final Timer createUnavailable;
    private final Timer createFailed;
    private final Timer deleted;
    private final Timer absent;
    private final Timer deleteUnavailable;
    private final Timer deleteFailed;

    MeteredPlantStore(PlantStore store, MeterRegistry registry) {
        super(store);
        created = timer(registry, "create", "created");
        alreadyStored = timer(registry, "create", "already_stored");
        duplicate = timer(registry, "create", "duplicate");
        createUnavailable = timer(registry, "create", "unavailable");
        createFailed = timer(registry, "create", "failed");
        deleted = timer(registry, "delete", "deleted");
        absent = timer(registry, "delete", "absent");
        deleteUnavailable = timer(registry, "delete", "unavailable");
        deleteFailed = timer(registry, "delete", "failed");
    }

    private static Timer timer(MeterRegistry registry, String operation, String outcome) {
        return Timer.builder(OPERATIONS)
                .description("Store operations, by operation and outcome")
                .tag("operation", operation)
                .tag("outcome", outcome)
                .serviceLevelObjectives(HttpMetrics.LATENCY_BUCKETS)
                .register(registry);
    }

    @Override
    protected CreateResult create(NewPlant plant, Optional<TraceContext> trace) {
        long start = System.nanoTime();
        CreateResult result = timed(() -> forward(plant, trace), start, createUnavailable, createFailed);
        Timer outcome = result instanceof CreateResult.Created ? created
                : result instanceof CreateResult.AlreadyStored ? alreadyStored
                : duplicate;
        outcome.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return result;
    }

    @Override
    protected boolean delete(long id, Optional<TraceContext> trace) {
        long start = System.nanoTime();
        boolean found = timed(() -> forward(id, trace), start, deleteUnavailable, deleteFailed);
        (found ? deleted : absent).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return found;
    }

    /** Runs the operation; a failure is timed under its outcome and thrown on. */
    private static <T> T timed(Supplier<T> operation, long start, Timer unavailable, Timer failed) {
        try {
            return operation.get();
        } catch (StoreUnavailableException e) {
            unavailable.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw e;
        } catch (RuntimeException | Error e) {
            failed.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw e;
        }
    }
}
