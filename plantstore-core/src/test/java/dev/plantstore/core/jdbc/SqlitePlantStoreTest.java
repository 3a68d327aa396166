package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.FaultyDataSource;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStoreContract;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlitePlantStoreTest extends PlantStoreContract {

    @TempDir
    Path dir;

    @Override
    protected PlantStore newStore() {
        return PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")));
    }

    @Override
    protected int concurrencyIds() {
        return 300;
    }

    @Test
    void plantsOutliveTheStoreThatWroteThem() {
        store.create(new NewPlant(1, "Fern", "pteridophyte"));
        store.create(new NewPlant(2, "Moss"));
        store.delete(2);
        store.close();
        try (var reopened = PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")))) {
            assertEquals(Optional.of(new Plant("Fern", "pteridophyte")), reopened.find(1));
            assertEquals(Optional.empty(), reopened.find(2));
        }
    }

    @Test
    void writesOfOneIdInOneBatchKeepTheirOrder() throws Exception {
        var gate = new FaultyDataSource(DurableSqlite.dataSource(dir.resolve("batched.db")));
        try (var batched = PlantStores.jdbc(gate)) {
            StuckWriter.assertWritesOfOneIdInOneBatchKeepTheirOrder(batched, gate);
        }
    }

    @Test
    void theSchemaVersionIsRecorded() throws Exception {
        try (Connection connection = DurableSqlite.dataSource(dir.resolve("plants.db")).getConnection();
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT max(version) FROM plantstore_schema")) {
            assertTrue(row.next());
            assertEquals(Schema.VERSION, row.getInt(1));
        }
    }

    @Test
    void aDatabaseOfANewerSchemaIsRefused() throws Exception {
        store.close();
        try (Connection connection = DurableSqlite.dataSource(dir.resolve("plants.db")).getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("UPDATE plantstore_schema SET version = " + (Schema.VERSION + 1));
        }
        var e = assertThrows(StoreUnavailableException.class,
                () -> PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db"))));
        assertTrue(e.getMessage().contains("newer than this release's " + Schema.VERSION), e.getMessage());
    }

    @Test
    void operationsAfterCloseFailAsUnavailable() {
        store.close();
        assertThrows(StoreUnavailableException.class, () -> store.create(new NewPlant(1, "Fern")));
        assertThrows(StoreUnavailableException.class, () -> store.delete(1));
        assertEquals(false, store.isAvailable());
    }
}
