package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.FaultyDataSource;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/** A JDBC store's writer held inside a batch, so that the writes sent meanwhile wait in its queue. */
final class StuckWriter {

    private StuckWriter() {
    }

    /**
     * Closes the gate, sends one create that the writer takes and gets stuck on (its connection waits at the gate),
     * then creates of ids {@code 0 .. count - 1}, and returns once every one of those is queued with its caller
     * waiting. Their outcomes, in id order.
     */
    static List<CompletableFuture<CreateResult>> queueBehindAStuckBatch(PlantStore store, FaultyDataSource gate,
                                                                      int count) throws InterruptedException {
        holdTheWriter(store, gate);
        List<CompletableFuture<CreateResult>> queued = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            var result = new CompletableFuture<CreateResult>();
            var plant = new NewPlant(id, "queued " + id);
            callers.add(startCaller(() -> store.create(plant), result));
            queued.add(result);
        }
        awaitQueued(callers);
        return queued;
    }

    private static void holdTheWriter(PlantStore store, FaultyDataSource gate) throws InterruptedException {
        gate.close();
        CompletableFuture.supplyAsync(() -> store.create(new NewPlant(-1, "taken by the writer")));
        gate.awaitWaiter();
    }

    /** A thread, started, that sends {@code write} and completes {@code outcome} with what it returns or throws. */
    private static <T> Thread startCaller(Supplier<T> write, CompletableFuture<T> outcome) {
        Thread caller = new Thread(() -> {
            try {
                outcome.complete(write.get());
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
            }
        });
        caller.start();
        return caller;
    }

    /** A caller waits with a time-out only once its write is in the queue. */
    private static void awaitQueued(List<Thread> callers) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (callers.stream().anyMatch(caller -> caller.getState() != Thread.State.TIMED_WAITING)) {
            assertTrue(System.nanoTime() < deadline, "the callers did not start waiting");
            Thread.onSpinWait();
        }
    }

    /**
     * Sends {@code writes} while the writer is stuck, each once the one before it waits in the queue, so that they
     * reach the writer as one batch in this order; then lets the writer go. Their outcomes, in order.
     */
    static List<Object> oneBatchInOrder(PlantStore store, FaultyDataSource gate,
                                        List<Function<PlantStore, Object>> writes) throws Exception {
        holdTheWriter(store, gate);
        List<CompletableFuture<Object>> outcomes = new ArrayList<>();
        for (Function<PlantStore, Object> write : writes) {
            var outcome = new CompletableFuture<Object>();
            awaitQueued(List.of(startCaller(() -> write.apply(store), outcome)));
            outcomes.add(outcome);
        }
        gate.open();
        List<Object> results = new ArrayList<>();
        for (CompletableFuture<Object> outcome : outcomes) {
            results.add(outcome.get(10, TimeUnit.SECONDS));
        }
        return results;
    }

    /**
     * Several writes of one id in one batch each see what the writes before them left, whatever the database: the
     * outcomes and the table are those of the writes applied one at a time.
     */
    static void assertWritesOfOneIdInOneBatchKeepTheirOrder(PlantStore store, FaultyDataSource gate) throws Exception {
        store.create(new NewPlant(8, "Rose"));
        List<Object> outcomes = oneBatchInOrder(store, gate, List.of(
                plants -> plants.create(new NewPlant(7, "Fern")),
                plants -> plants.delete(7),
                plants -> plants.create(new NewPlant(7, "Moss")),
                plants -> plants.create(new NewPlant(7, "Moss")),
                plants -> plants.create(new NewPlant(7, "Fern")),
                plants -> plants.delete(8),
                plants -> plants.create(new NewPlant(8, "Tulip"))));
        assertEquals(List.of(
                new CreateResult.Created(new Plant("Fern", null)),
                true,
                new CreateResult.Created(new Plant("Moss", null)),
                new CreateResult.AlreadyStored(new Plant("Moss", null)),
                new CreateResult.Duplicate(7),
                true,
                new CreateResult.Created(new Plant("Tulip", null))), outcomes);
        assertEquals(Optional.of(new Plant("Moss", null)), store.find(7));
        assertEquals(Optional.of(new Plant("Tulip", null)), store.find(8));
    }
}
