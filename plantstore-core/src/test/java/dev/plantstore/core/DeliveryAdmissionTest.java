package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.Delivery;
import dev.plantstore.testkit.Poll;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Pacing is an admission in front of the store: a write held by its delivery has not reached the store. */
class DeliveryAdmissionTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aWriteWaitsForAdmissionBeforeItReachesTheStoreWhichOthersStillReach() throws Exception {
        var room = new CountDownLatch(1);
        var admitting = new CountDownLatch(1);
        Delivery holding = new Delivery() {
            @Override
            public void awaitRoom() {
                admitting.countDown();
                try {
                    room.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void close() {
            }
        };
        var store = new InMemoryPlantStore();
        try (var delivering = new DeliveringPlantStore(store, holding)) {
            var held = CompletableFuture.supplyAsync(() -> delivering.create(new NewPlant(1, "Monstera")));
            assertTrue(admitting.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            store.create(new NewPlant(2, "Fern"));
            assertEquals(Optional.of(new Plant("Fern", null)), store.find(2), "the store itself waits for nothing");
            assertEquals(Optional.empty(), store.find(1), "the held write has not reached the store");
            room.countDown();
            assertTrue(Poll.until(WAIT, Duration.ofMillis(10), held::isDone));
            assertEquals(new CreateResult.Created(new Plant("Monstera", null)), held.get());
        }
    }
}
