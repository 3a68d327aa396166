package com.example.plants;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.InvalidPlantException;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.sqlite.SqliteFile;
import java.io.PrintStream;
import java.nio.file.Path;

public final class UseTheStore {

    public static void main(String[] args) {
        try (SqliteFile file = SqliteFile.open(Path.of("plants.db"));
             PlantStore store = PlantStores.jdbc(file)) {
            run(store, System.out);
        }
    }

    static void run(PlantStore store, PrintStream out) {
        CreateResult result = store.create(new NewPlant(1, "Monstera", "aroid"));
        if (result instanceof CreateResult.Created created) {
            out.println("created " + created.plant());
        } else if (result instanceof CreateResult.AlreadyStored stored) {
            out.println("already there " + stored.plant());
        } else if (result instanceof CreateResult.Duplicate duplicate) {
            out.println("id " + duplicate.id() + " holds another plant");
        }
        out.println("found " + store.find(1).orElseThrow());
        out.println("deleted " + store.delete(1));
        try {
            new NewPlant(2, "", null);
        } catch (InvalidPlantException e) {
            out.println("refused: " + e.getMessage());
        }
    }
}
