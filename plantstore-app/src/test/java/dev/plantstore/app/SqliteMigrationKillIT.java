package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} in the middle of the migration of a SQLite store of a million plants leaves it at version 1, whole,
 * and the next run finishes the migration, losing no plant.
 */
@Tag("heavy")
class SqliteMigrationKillIT {

    private static final int ADDED_PLANTS = 1_000_000;
    /** How far the copy has gone, as the write-ahead log's size against the database's, at each kill. */
    private static final double[] KILLED_AT = {0.05, 0.25};
    /**
     * How many times its own pace, measured in the killed runs, the finishing run may take before it counts as hung:
     * the copy's pace here varies by a factor of about two from an idle day to a busy one, and the rest of the
     * migration (the index, the JVM's start) is short beside the copy.
     */
    private static final int PATIENCE_FACTOR = 10;
    private static final String FINGERPRINT = "SELECT count(*) || ' ' || sum(id & 65535) || ' ' || sum(length(name)) "
            + "|| ' ' || total(length(tag)) || ' ' || (SELECT group_concat(id || name || coalesce(tag, ''), ',') "
            + "FROM (SELECT * FROM plants WHERE id BETWEEN -1 AND 1 OR abs(id) > 9000000000000000000 ORDER BY id)) "
            + "FROM plants";

    @TempDir
    Path dir;

    @Test
    void aMigrationKilledMidCopyLeavesVersion1AndTheNextRunFinishesIt() throws Exception {
        Path file = Version1Store.copyInto(dir);
        DataSource sqlite = DurableSqlite.dataSource(file);
        addPlantsInRandomOrder(sqlite);
        String before = query(sqlite, FINGERPRINT);
        long databaseBytes = Files.size(file);
        Path wal = file.resolveSibling(file.getFileName() + "-wal");

        Duration slowestWholeCopy = Duration.ZERO;
        for (double fraction : KILLED_AT) {
            long started = System.nanoTime();
            try (JarProcess migrating = JarProcess.start(migrate(file), Files.createTempFile(dir, "migrate", ".log"))) {
                boolean copying = Poll.until(Poll.PATIENCE, Duration.ofMillis(5),
                        () -> Files.exists(wal) && Files.size(wal) > fraction * databaseBytes
                                || !migrating.process().isAlive());
                assertTrue(copying && migrating.process().isAlive(),
                        "the copy was under way at the kill: " + migrating.output());
                Duration wholeCopy = Duration.ofNanos((long) ((System.nanoTime() - started) / fraction));
                slowestWholeCopy = wholeCopy.compareTo(slowestWholeCopy) > 0 ? wholeCopy : slowestWholeCopy;
                migrating.process().destroyForcibly().waitFor();
            }
            assertEquals("1", query(sqlite, "SELECT group_concat(version) FROM plantstore_schema"));
            assertEquals(before, query(sqlite, FINGERPRINT));
            assertTrue(query(sqlite, "SELECT sql FROM sqlite_master WHERE name = 'plants'").contains("BIGINT"));
            assertEquals("0", query(sqlite, "SELECT count(*) FROM sqlite_master WHERE name = 'plants_by_row_id'"));
        }

        RunningJar.Completed finished = RunningJar.runToCompletion(slowestWholeCopy.multipliedBy(PATIENCE_FACTOR),
                dir, "migrate", "--store", "sqlite:" + file);
        assertEquals(0, finished.exitCode(), finished.stderr());
        assertTrue(finished.stdout().endsWith("migrated from schema version 1 to " + JdbcSchema.currentVersion()
                + "\n"), finished.stdout());
        String everyVersion = IntStream.rangeClosed(1, JdbcSchema.currentVersion()).mapToObj(Integer::toString)
                .collect(Collectors.joining(","));
        assertEquals(everyVersion, query(sqlite, "SELECT group_concat(version) FROM plantstore_schema"));
        assertEquals(before, query(sqlite, FINGERPRINT));
        assertTrue(query(sqlite, "SELECT sql FROM sqlite_master WHERE name = 'plants'")
                .contains("id INTEGER PRIMARY KEY"));
        assertFalse(query(sqlite, "SELECT group_concat(receiver) FROM webhook_outbox").contains("password"));
    }

    private ProcessBuilder migrate(Path file) {
        String jar = System.getProperty("plantstore.jar");
        var builder = new ProcessBuilder(JarProcess.command(List.of(), Path.of(jar),
                List.of("migrate", "--store", "sqlite:" + file))).directory(dir.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("PLANTSTORE_"));
        return builder;
    }

    /** A million plants under random ids, written in that order, as a store filled by clients would hold them. */
    private static void addPlantsInRandomOrder(DataSource sqlite) throws Exception {
        var random = new Random(41);
        try (Connection connection = sqlite.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT OR IGNORE INTO plants (id, name, tag) VALUES (?, ?, ?)")) {
            connection.setAutoCommit(false);
            for (int i = 0; i < ADDED_PLANTS; i++) {
                long id = random.nextLong();
                insert.setLong(1, id);
                insert.setString(2, "Plant " + id);
                insert.setString(3, id % 3 == 0 ? null : "tag" + (id & 15));
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }

    private static String query(DataSource sqlite, String sql) throws Exception {
        try (Connection connection = sqlite.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            assertTrue(row.next());
            return row.getString(1);
        }
    }
}
