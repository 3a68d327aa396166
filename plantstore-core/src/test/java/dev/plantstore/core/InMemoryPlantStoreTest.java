package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryPlantStoreTest {

    private final PlantStore store = PlantStore.inMemory();

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
    }

    @Test
    void findOfUnknownIdIsEmpty() {
        assertEquals(Optional.empty(), store.find(Long.MIN_VALUE));
    }
}
