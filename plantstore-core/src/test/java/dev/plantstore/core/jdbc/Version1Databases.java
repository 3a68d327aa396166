package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.testkit.TestPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;

/**
 * The databases the last release of schema version 1 wrote (test resources {@code version1/}, whose README says how
 * they were made), and what the migration tests read from a store: its plants, its events and every text it holds.
 */
final class Version1Databases {

    /** The receiver the events were recorded for, its credentials in the user information and the query. */
    static final String RECEIVER = "http://hook-user:hook-password@127.0.0.1:9/plant-events?token=query-secret";
    static final String REDACTED_RECEIVER = "http://127.0.0.1:9/plant-events";
    static final List<String> SECRETS = List.of("hook-user", "hook-password", "query-secret", "token=");

    private static final String DUMPED_SCHEMA = "plantstore_v1_fixture";

    private Version1Databases() {
    }

    record StoredPlant(long id, String name, String tag) {
    }

    record StoredEvent(long seq, String receiver, long plantId, String type, String name, String tag, long recordedAt,
                       int attempts, long dueAt, long leasedUntil, int state, long retryFrom) {

        StoredEvent withReceiver(String newReceiver) {
            return new StoredEvent(seq, newReceiver, plantId, type, name, tag, recordedAt, attempts, dueAt, leasedUntil,
                    state, retryFrom);
        }
    }

    /** A copy of the version-1 SQLite file in {@code dir}. */
    static Path sqliteCopy(Path dir) throws IOException {
        Path copy = dir.resolve("plants-v1.db");
        try (InputStream in = resource("plants-v1.db")) {
            Files.copy(in, copy);
        }
        return copy;
    }

    /** Loads the version-1 dump into {@code postgres}'s schema, which must be empty. */
    static void loadPostgres(TestPostgres postgres) throws IOException, SQLException {
        String dump;
        try (InputStream in = resource("plants-v1-postgres.sql")) {
            dump = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // psql's meta-commands (\restrict) and the schema's creation are left out; the schema is the test's own.
        String script = dump.lines()
                .filter(line -> !line.startsWith("\\") && !line.startsWith("--"))
                .filter(line -> !line.startsWith("CREATE SCHEMA"))
                .collect(Collectors.joining("\n"))
                .replace(DUMPED_SCHEMA + ".", postgres.schema() + ".");
        try (Connection connection = DriverManager.getConnection(postgres.databaseUrl());
             Statement statement = connection.createStatement()) {
            statement.execute(script);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = Version1Databases.class.getResourceAsStream("version1/" + name);
        if (in == null) {
            throw new AssertionError("test resource version1/" + name + " is missing");
        }
        return in;
    }

    static List<StoredPlant> plants(DataSource dataSource) throws SQLException {
        List<StoredPlant> plants = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, name, tag FROM plants ORDER BY id")) {
            while (rows.next()) {
                plants.add(new StoredPlant(rows.getLong(1), rows.getString(2), rows.getString(3)));
            }
        }
        return plants;
    }

    static List<StoredEvent> events(DataSource dataSource) throws SQLException {
        List<StoredEvent> events = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT seq, receiver, plant_id, type, name, tag, recorded_at, "
                     + "attempts, due_at, leased_until, state, retry_from FROM webhook_outbox ORDER BY seq")) {
            while (rows.next()) {
                events.add(new StoredEvent(rows.getLong(1), rows.getString(2), rows.getLong(3), rows.getString(4),
                        rows.getString(5), rows.getString(6), rows.getLong(7), rows.getInt(8), rows.getLong(9),
                        rows.getLong(10), rows.getInt(11), rows.getLong(12)));
            }
        }
        return events;
    }

    /** What {@code plantstore_schema} holds once every step of this release has run. */
    static List<Integer> everyVersion() {
        return IntStream.rangeClosed(1, Schema.VERSION).boxed().toList();
    }

    static List<Integer> recordedVersions(DataSource dataSource) throws SQLException {
        List<Integer> versions = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT version FROM plantstore_schema ORDER BY version")) {
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
        }
        return versions;
    }

    /** Fails if any row of any table of the store holds one of the receiver's credentials in any column. */
    static void assertNoCredentialsInAnyTable(DataSource dataSource, Dialect dialect) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet names = statement.executeQuery(dialect == Dialect.POSTGRESQL
                    ? "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                    : "SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (names.next()) {
                    tables.add(names.getString(1));
                }
            }
            assertFalse(tables.isEmpty());
            for (String table : tables) {
                try (ResultSet rows = statement.executeQuery("SELECT * FROM " + table)) {
                    ResultSetMetaData columns = rows.getMetaData();
                    while (rows.next()) {
                        for (int column = 1; column <= columns.getColumnCount(); column++) {
                            String value = rows.getString(column);
                            for (String secret : SECRETS) {
                                assertFalse(value != null && value.contains(secret), table + "."
                                        + columns.getColumnName(column) + " holds " + secret + ": " + value);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * With the rows of {@code plantstore_schema} deleted behind a migrated store's back, neither a migration nor a
     * store that may not migrate runs a step again: both refuse, saying what they found and how to record the
     * version, and leave the tables as they were.
     */
    static void assertADeletedVersionTableIsRefusedAndNoStepRunsAgain(DataSource dataSource) throws SQLException {
        JdbcSchema.migrate(dataSource);
        List<StoredPlant> plants = plants(dataSource);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("DELETE FROM plantstore_schema");
        }
        String expected = "the table plantstore_schema records schema version 0, but the tables are at version "
                + Schema.VERSION + ": its rows were changed by hand, so no step runs; as the schema's owner, record "
                + "the version (INSERT INTO plantstore_schema (version) VALUES (" + Schema.VERSION + "))"
                + " and start again";
        var migrating = assertThrows(StoreUnavailableException.class, () -> JdbcSchema.migrate(dataSource));
        assertEquals(expected, migrating.getMessage());
        var serving = assertThrows(StoreUnavailableException.class,
                () -> PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withMigratesSchema(false)));
        assertEquals(expected, serving.getMessage());
        assertEquals(List.of(), recordedVersions(dataSource));
        assertEquals(plants, plants(dataSource));
    }
}
