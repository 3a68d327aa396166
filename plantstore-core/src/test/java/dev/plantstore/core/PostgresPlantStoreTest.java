package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PostgresPlantStoreTest extends PlantStoreContract {

    private String schema;

    @Override
    protected PlantStore newStore() {
        schema = Databases.newPostgresSchema();
        return PlantStore.jdbc(Databases.postgres(Databases.postgresUrl(), schema));
    }

    @Override
    protected int concurrencyIds() {
        return 300;
    }

    @AfterEach
    void dropSchema() {
        if (schema != null) {
            Databases.dropPostgresSchema(schema);
        }
    }

    @Test
    void twoStoresOnOneDatabaseSeeEachOthersWrites() {
        try (var other = PlantStore.jdbc(Databases.postgres(Databases.postgresUrl(), schema))) {
            store.create(new NewPlant(1, "Fern"));
            assertEquals(new CreateResult.Duplicate(1), other.create(new NewPlant(1, "Moss")));
            assertEquals(true, other.delete(1));
            assertEquals(false, store.delete(1));
            assertEquals(Optional.empty(), store.find(1));
        }
    }
}
