package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.sqlite.SqliteFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An embedder's SQLite file, opened as the library page shows, is kept as durably as the server keeps its own. */
class EmbeddedSqliteTest {

    @TempDir
    Path dir;

    @Test
    void anEmbeddedFileIsInWriteAheadLogModeWithAFullSyncAtEachCommit() throws Exception {
        try (SqliteFile file = SqliteFile.open(dir.resolve("plants.db"));
             PlantStore store = PlantStores.jdbc(file)) {
            store.create(new NewPlant(1, "Monstera", "aroid"));
            assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(1));
            try (Connection connection = file.getConnection(); Statement statement = connection.createStatement()) {
                assertEquals("wal", pragma(statement, "journal_mode"));
                assertEquals("2", pragma(statement, "synchronous"), "FULL");
                assertEquals("5000", pragma(statement, "busy_timeout"));
            }
        }
    }

    private static String pragma(Statement statement, String name) throws Exception {
        try (ResultSet row = statement.executeQuery("PRAGMA " + name)) {
            row.next();
            return row.getString(1);
        }
    }
}
