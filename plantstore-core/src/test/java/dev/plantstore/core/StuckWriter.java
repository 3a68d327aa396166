package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
        gate.close();
        CompletableFuture.supplyAsync(() -> store.create(new NewPlant(-1, "taken by the writer")));
        gate.awaitWaiter();
        List<CompletableFuture<CreateResult>> queued = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            var result = new CompletableFuture<CreateResult>();
            var plant = new NewPlant(id, "queued " + id);
            Thread caller = new Thread(() -> {
                try {
                    result.complete(store.create(plant));
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
            caller.start();
            callers.add(caller);
            queued.add(result);
        }
        // A caller waits with a time-out only once its write is in the queue.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (callers.stream().anyMatch(caller -> caller.getState() != Thread.State.TIMED_WAITING)) {
            assertTrue(System.nanoTime() < deadline, "the callers did not start waiting");
            Thread.onSpinWait();
        }
        return queued;
    }
}
