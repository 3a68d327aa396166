package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class StoreConcurrencyTest {

    private static final int THREADS = 16;
    private static final int IDS = 2_000;

    @Test
    void manyThreadsCreatingAndDeletingTheSameIdsCreateEachOnceAndDeleteEachOnce() throws Exception {
        PlantStore store = PlantStore.inMemory();
        var created = new AtomicIntegerArray(IDS);
        var deleted = new AtomicIntegerArray(IDS);
        var bothPhasesTogether = new CyclicBarrier(THREADS);

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Void>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int offset = t * 131;
                Callable<Void> worker = () -> {
                    bothPhasesTogether.await();
                    for (int n = 0; n < IDS; n++) {
                        int id = (n + offset) % IDS;
                        if (store.create(new NewPlant(id, "plant " + id)) instanceof CreateResult.Created) {
                            created.incrementAndGet(id);
                        }
                    }
                    bothPhasesTogether.await();
                    for (int n = 0; n < IDS; n++) {
                        int id = (n + offset) % IDS;
                        if (store.delete(id)) {
                            deleted.incrementAndGet(id);
                        }
                    }
                    return null;
                };
                workers.add(pool.submit(worker));
            }
            for (Future<Void> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }

        for (int id = 0; id < IDS; id++) {
            assertEquals(1, created.get(id), "creates of id " + id);
            assertEquals(1, deleted.get(id), "deletes of id " + id);
            assertEquals(java.util.Optional.empty(), store.find(id));
        }
    }
}
