package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.plantstore.sqlite.DurableSqlite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Property: any sequence of creates and deletes leaves a store equal to a plain map, and every answer along the way
 * is the map's answer. Jazzer draws the sequences (ids from a small range, so they collide; names of any text, so
 * some are refused); the inputs kept under {@code StoreModelFuzzTestInputs/} replay in every test run.
 */
class StoreModelFuzzTest {

    private static final int IDS = 16;

    private static void runAgainstTheModel(FuzzedDataProvider data, PlantStore store) {
        Map<Long, Plant> model = new HashMap<>();
        int operations = data.consumeInt(1, 200);
        for (int i = 0; i < operations && data.remainingBytes() > 0; i++) {
            long id = data.consumeInt(-IDS / 2, IDS / 2 - 1);
            if (data.consumeBoolean()) {
                assertEquals(model.remove(id) != null, store.delete(id), "delete " + id);
            } else {
                String name = data.consumeString(12);
                String tag = data.consumeBoolean() ? null : data.consumeString(6);
                NewPlant plant;
                try {
                    plant = new NewPlant(id, name, tag);
                } catch (InvalidPlantException refused) {
                    continue;
                }
                Plant stored = model.get(id);
                CreateResult expected = stored == null ? new CreateResult.Created(plant.plant())
                        : stored.equals(plant.plant()) ? new CreateResult.AlreadyStored(stored)
                        : new CreateResult.Duplicate(id);
                model.putIfAbsent(id, plant.plant());
                assertEquals(expected, store.create(plant), "create " + id);
            }
        }
        for (long id = -IDS / 2; id < IDS / 2; id++) {
            assertEquals(Optional.ofNullable(model.get(id)), store.find(id), "plant " + id + " at the end");
        }
    }

    @FuzzTest
    void inMemoryStoreBehavesAsAMap(FuzzedDataProvider data) {
        try (PlantStore store = PlantStores.inMemory()) {
            runAgainstTheModel(data, store);
        }
    }

    @FuzzTest
    void sqliteStoreBehavesAsAMap(FuzzedDataProvider data) throws IOException {
        Path dir = Files.createTempDirectory("plantstore-model");
        try (PlantStore store = PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")))) {
            runAgainstTheModel(data, store);
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(file -> {
                    try {
                        Files.delete(file);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
            Files.delete(dir);
        }
    }
}
