package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link PlantStore} promises. Each implementation's test class extends this one. */
public abstract class PlantStoreContract {

    protected PlantStore store;

    /** A new, empty store. */
    protected abstract PlantStore newStore() throws Exception;

    /** How many ids the concurrency test races over; a store that syncs to disk gets fewer. */
    protected int concurrencyIds() {
        return 2_000;
    }

    @BeforeEach
    void openStore() throws Exception {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void createReturnsThePlantAndStoresIt() {
        var result = store.create(new NewPlant(1, "Monstera", "aroid"));
        assertEquals(new CreateResult.Created(new Plant("Monstera", "aroid")), result);
        assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(1));
    }

    @Test
    void createOfATakenIdIsDuplicateAndKeepsTheFirstPlant() {
        store.create(new NewPlant(1, "Monstera", "aroid"));
        assertEquals(new CreateResult.Duplicate(1), store.create(new NewPlant(1, "Fern", null)));
        assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(1));
    }

    @Test
    void createOfAnIdenticalPlantIsAlreadyStored() {
        store.create(new NewPlant(1, "Monstera", "aroid"));
        assertEquals(new CreateResult.AlreadyStored(new Plant("Monstera", "aroid")),
                store.create(new NewPlant(1, "Monstera", "aroid")));
        assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(1));
    }

    @Test
    void anAbsentTagAndANullTagAreTheSamePlant() {
        store.create(new NewPlant(1, "Fern"));
        assertEquals(new CreateResult.AlreadyStored(new Plant("Fern", null)),
                store.create(new NewPlant(1, "Fern", null)));
    }

    @Test
    void aPlantDifferingOnlyInTagOrCaseIsADuplicate() {
        store.create(new NewPlant(1, "Fern", null));
        assertEquals(new CreateResult.Duplicate(1), store.create(new NewPlant(1, "Fern", "")));
        assertEquals(new CreateResult.Duplicate(1), store.create(new NewPlant(1, "fern", null)));
        assertEquals(new CreateResult.Duplicate(1), store.create(new NewPlant(1, "Fern ", null)));
        assertEquals(Optional.of(new Plant("Fern", null)), store.find(1));
    }

    @Test
    void concurrentIdenticalCreatesAreOneCreatedAndTheRestAlreadyStored() throws Exception {
        int threads = 16;
        var plant = new NewPlant(77, "Monstera", "aroid");
        List<CreateResult> results = race(threads, thread -> store.create(plant));
        assertEquals(1, results.stream().filter(CreateResult.Created.class::isInstance).count(), results.toString());
        assertEquals(threads - 1, results.stream()
                .filter(new CreateResult.AlreadyStored(plant.plant())::equals).count(), results.toString());
    }

    @Test
    void concurrentDifferingCreatesAreOneCreatedAndTheRestDuplicates() throws Exception {
        int threads = 16;
        List<CreateResult> results = race(threads, thread -> store.create(new NewPlant(78, "plant " + thread)));
        var created = results.stream().filter(CreateResult.Created.class::isInstance).toList();
        assertEquals(1, created.size(), results.toString());
        assertEquals(threads - 1, results.stream().filter(new CreateResult.Duplicate(78)::equals).count());
        assertEquals(Optional.of(((CreateResult.Created) created.get(0)).plant()), store.find(78));
    }

    /** Runs {@code work} on {@code threads} threads released together; the results in thread order. */
    private static <T> List<T> race(int threads, IntFunction<T> work) throws Exception {
        var together = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    together.await();
                    return work.apply(thread);
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void absentTagStaysAbsentAndEmptyTagStaysEmpty() {
        store.create(new NewPlant(1, "Fern", null));
        store.create(new NewPlant(2, "Fern", ""));
        assertEquals(Optional.of(new Plant("Fern", null)), store.find(1));
        assertEquals(Optional.of(new Plant("Fern", "")), store.find(2));
    }

    @Test
    void textIsKeptExactly() {
        String name = "  Cact\u00fas \uD83C\uDF35 \"quoted\" ' \\ \u0001\t\n end ";
        store.create(new NewPlant(1, name, "t\u00e4g"));
        assertEquals(Optional.of(new Plant(name, "t\u00e4g")), store.find(1));
    }

    @Test
    void extremeIdsAreDistinctPlants() {
        for (long id : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            assertEquals(new CreateResult.Created(new Plant("p" + id, null)), store.create(new NewPlant(id, "p" + id)));
        }
        for (long id : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            assertEquals(Optional.of(new Plant("p" + id, null)), store.find(id));
        }
    }

    @Test
    void deleteRemovesThePlantAndSaysSo() {
        store.create(new NewPlant(-5, "Fern"));
        assertTrue(store.delete(-5));
        assertEquals(Optional.empty(), store.find(-5));
    }

    @Test
    void deleteOfUnknownIdIsFalse() {
        assertFalse(store.delete(42));
    }

    @Test
    void deleteTwiceIsTrueThenFalse() {
        store.create(new NewPlant(3, "Fern"));
        assertTrue(store.delete(3));
        assertFalse(store.delete(3));
    }

    @Test
    void aDeletedIdMayBeCreatedAgain() {
        store.create(new NewPlant(9, "Fern"));
        store.delete(9);
        assertEquals(new CreateResult.Created(new Plant("Cactus", null)), store.create(new NewPlant(9, "Cactus")));
        assertEquals(Optional.of(new Plant("Cactus", null)), store.find(9));
    }

    @Test
    void findOfUnknownIdIsEmpty() {
        assertEquals(Optional.empty(), store.find(Long.MIN_VALUE));
    }

    @Test
    void anOpenStoreIsAvailable() {
        assertTrue(store.isAvailable());
    }

    @Test
    void manyThreadsCreatingAndDeletingTheSameIdsCreateEachOnceAndDeleteEachOnce() throws Exception {
        int threads = 16;
        int ids = concurrencyIds();
        var created = new AtomicIntegerArray(ids);
        var deleted = new AtomicIntegerArray(ids);
        var bothPhasesTogether = new CyclicBarrier(threads);

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t * 131;
                Callable<Void> worker = () -> {
                    bothPhasesTogether.await();
                    for (int n = 0; n < ids; n++) {
                        int id = (n + offset) % ids;
                        if (store.create(new NewPlant(id, "plant " + id)) instanceof CreateResult.Created) {
                            created.incrementAndGet(id);
                        }
                    }
                    bothPhasesTogether.await();
                    for (int n = 0; n < ids; n++) {
                        int id = (n + offset) % ids;
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

        for (int id = 0; id < ids; id++) {
            assertEquals(1, created.get(id), "creates of id " + id);
            assertEquals(1, deleted.get(id), "deletes of id " + id);
            assertEquals(Optional.empty(), store.find(id));
        }
    }
}
