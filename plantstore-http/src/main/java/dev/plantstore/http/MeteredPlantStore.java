package dev.plantstore.http;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.forwarding.ForwardingPlantStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A store that times each create and delete by its outcome ({@value #OPERATIONS}): how often the store is used, how
 * long it takes, and how often it fails. Finds are not timed: the API never finds.
 */
final class MeteredPlantStore extends ForwardingPlantStore {

    static final String OPERATIONS = "plantstore.store.operations";

    private final Map<StoreOutcome, Timer> creates = new EnumMap<>(StoreOutcome.class);
    private final Map<StoreOutcome, Timer> deletes = new EnumMap<>(StoreOutcome.class);

    MeteredPlantStore(PlantStore store, MeterRegistry registry) {
        super(store);
        for (StoreOutcome outcome : List.of(StoreOutcome.CREATED, StoreOutcome.ALREADY_STORED, StoreOutcome.DUPLICATE,
                StoreOutcome.UNAVAILABLE, StoreOutcome.FAILED)) {
            creates.put(outcome, timer(registry, "create", outcome));
        }
        for (StoreOutcome outcome : List.of(StoreOutcome.DELETED, StoreOutcome.ABSENT, StoreOutcome.UNAVAILABLE,
                StoreOutcome.FAILED)) {
            deletes.put(outcome, timer(registry, "delete", outcome));
        }
    }

    private static Timer timer(MeterRegistry registry, String operation, StoreOutcome outcome) {
        return Timer.builder(OPERATIONS)
                .description("Store operations, by operation and outcome")
                .tag("operation", operation)
                .tag("outcome", outcome.label)
                .serviceLevelObjectives(HttpMetrics.LATENCY_BUCKETS)
                .register(registry);
    }

    @Override
    protected CreateResult create(NewPlant plant, Optional<TraceContext> trace) {
        long start = System.nanoTime();
        CreateResult result = timed(() -> forward(plant, trace), start, creates);
        creates.get(StoreOutcome.of(result)).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return result;
    }

    @Override
    protected boolean delete(long id, Optional<TraceContext> trace) {
        long start = System.nanoTime();
        boolean found = timed(() -> forward(id, trace), start, deletes);
        deletes.get(StoreOutcome.ofDelete(found)).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return found;
    }

    /** Runs the operation; a failure is timed under its outcome and thrown on. */
    private static <T> T timed(Supplier<T> operation, long start, Map<StoreOutcome, Timer> timers) {
        try {
            return operation.get();
        } catch (StoreUnavailableException e) {
            timers.get(StoreOutcome.UNAVAILABLE).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw e;
        } catch (RuntimeException | Error e) {
            timers.get(StoreOutcome.FAILED).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw e;
        }
    }
}
