package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStores;
import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reference page's account of the schema names every table the store creates in a database of the reader's. */
class SchemaPageTest {

    private static final Path REFERENCE_PAGE = Path.of("..", "docs", "reference.md");

    @TempDir
    Path dir;

    @Test
    void theReferencePageNamesEveryTableTheStoreCreatesEvenWithoutWebhooks() throws Exception {
        DataSource dataSource = DurableSqlite.dataSource(dir.resolve("plants.db"));
        try (var store = PlantStores.jdbc(dataSource)) {
            store.create(new NewPlant(1, "Monstera"));
        }
        List<String> tables = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet names = statement.executeQuery("SELECT name FROM sqlite_master"
                     + " WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")) {
            while (names.next()) {
                tables.add(names.getString(1));
            }
        }
        assertFalse(tables.isEmpty());
        String schema = schemaParagraph();
        for (String table : tables) {
            assertTrue(schema.contains("`" + table + "`"), table + " is not named in docs/reference.md: " + schema);
        }
    }

    /** The page's "Schema." item, up to the next item. */
    private static String schemaParagraph() throws Exception {
        String page = Files.readString(REFERENCE_PAGE);
        int start = page.indexOf("- **Schema.**");
        assertTrue(start >= 0, "docs/reference.md has no Schema item");
        int end = page.indexOf("\n- ", start + 1);
        return page.substring(start, end < 0 ? page.length() : end);
    }
}
