package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A SQLite store written by the last release of schema version 1, migrated to this release's. */
class SqliteSchemaMigrationTest {

    @TempDir
    Path dir;

    @Test
    void aVersionTableWhoseRowsWereDeletedIsRefusedAndNoStepRunsTwice() throws Exception {
        Version1Databases.assertADeletedVersionTableIsRefusedAndNoStepRunsAgain(
                DurableSqlite.dataSource(dir.resolve("damaged.db")));
    }

    @Test
    void aVersion1StoreKeepsEveryPlantAndPendingEventAndLosesTheReceiversCredentials() throws Exception {
        DataSource dataSource = DurableSqlite.dataSource(Version1Databases.sqliteCopy(dir));
        var plants = Version1Databases.plants(dataSource);
        var events = Version1Databases.events(dataSource);
        assertEquals(8, plants.size());
        assertEquals(10, events.size());
        assertEquals(Version1Databases.RECEIVER, events.get(0).receiver());

        assertEquals(new JdbcSchema.Migration(1, Schema.VERSION), JdbcSchema.migrate(dataSource));

        assertEquals(plants, Version1Databases.plants(dataSource));
        assertEquals(events.stream().map(e -> e.withReceiver(Version1Databases.REDACTED_RECEIVER)).toList(),
                Version1Databases.events(dataSource));
        assertEquals(Version1Databases.everyVersion(), Version1Databases.recordedVersions(dataSource));
        Version1Databases.assertNoCredentialsInAnyTable(dataSource, Dialect.SQLITE);
        assertPlantsAreKeyedByTheRowId(dataSource);
        try (var store = PlantStores.jdbc(dataSource)) {
            for (var plant : plants) {
                assertEquals(Optional.of(new Plant(plant.name(), plant.tag())), store.find(plant.id()));
            }
            store.create(new NewPlant(Long.MIN_VALUE + 2, "Newest", "after"));
            assertEquals(Optional.of(new Plant("Newest", "after")), store.find(Long.MIN_VALUE + 2));
        }
    }

    @Test
    void aNewStoreIsBuiltByTheStepsWithItsPlantsKeyedByTheRowId() throws Exception {
        DataSource dataSource = DurableSqlite.dataSource(dir.resolve("new.db"));
        assertEquals(0, JdbcSchema.version(dataSource));
        assertEquals(new JdbcSchema.Migration(0, Schema.VERSION), JdbcSchema.migrate(dataSource));
        assertEquals(Version1Databases.everyVersion(), Version1Databases.recordedVersions(dataSource));
        assertPlantsAreKeyedByTheRowId(dataSource);
        assertEquals(new JdbcSchema.Migration(Schema.VERSION, Schema.VERSION), JdbcSchema.migrate(dataSource));
        assertEquals(Version1Databases.everyVersion(), Version1Databases.recordedVersions(dataSource));
    }

    @Test
    void aStoreThatMayNotMigrateRefusesAVersion1DatabaseAndLeavesItAsItWas() throws Exception {
        DataSource dataSource = DurableSqlite.dataSource(Version1Databases.sqliteCopy(dir));
        var events = Version1Databases.events(dataSource);
        var e = assertThrows(StoreUnavailableException.class,
                () -> PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withMigratesSchema(false)));
        assertEquals("the database holds schema version 1, older than this release's " + Schema.VERSION
                + ", and this store may not change it; migrate it first", e.getMessage());
        assertEquals(List.of(1), Version1Databases.recordedVersions(dataSource));
        assertEquals(events, Version1Databases.events(dataSource));
    }

    @Test
    void aStoreThatMayNotMigrateOpensADatabaseAtThisVersion() throws Exception {
        DataSource dataSource = DurableSqlite.dataSource(Version1Databases.sqliteCopy(dir));
        JdbcSchema.migrate(dataSource);
        try (var store = PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withMigratesSchema(false))) {
            assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(1));
        }
    }

    /** One B-tree: the table's {@code INTEGER PRIMARY KEY} is its row id, and no index is kept beside it. */
    private static void assertPlantsAreKeyedByTheRowId(DataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            try (ResultSet table = statement.executeQuery("SELECT sql FROM sqlite_master WHERE name = 'plants'")) {
                assertTrue(table.next());
                assertTrue(table.getString(1).contains("id INTEGER PRIMARY KEY"), table.getString(1));
            }
            try (ResultSet indexes = statement.executeQuery(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'plants'")) {
                indexes.next();
                assertEquals(0, indexes.getInt(1));
            }
        }
    }
}
