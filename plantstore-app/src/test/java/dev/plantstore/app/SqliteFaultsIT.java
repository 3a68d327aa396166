package dev.plantstore.app;

import static dev.plantstore.app.Faults.ENV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default store, SQLite, under real faults of its disk, against the jar. */
@Tag("heavy")
@Tag("alone")
class SqliteFaultsIT {

    private static final int DISK_KIB = 2048;

    @TempDir
    Path dir;

    @Test
    void aFullDiskIs503UntilSpaceIsFreedThenTheServerRecoversByItselfAndGivesTheSpaceBack() throws Exception {
        String output;
        Path database;
        var ids = new Faults.Ids(1);
        try (Tmpfs disk = Tmpfs.mount(dir.resolve("disk"), DISK_KIB)) {
            database = disk.path().resolve("plants.db");
            Path wal = disk.path().resolve("plants.db-wal");
            try (RunningJar jar = RunningJar.start(dir, ENV, "--store", "sqlite:" + database, "--log-format", "json")) {
                for (int i = 0; i < 50; i++) {
                    assertEquals(200, ids.send(jar).status(), "creates before the fault");
                }
                long walBeforeFault = Files.size(wal);

                disk.fill();
                Faults.awaitRefusal(jar, ids, Duration.ofSeconds(10));
                Faults.assertUnhealthyButAlive(jar);
                for (int i = 0; i < 50; i++) {
                    ids.send(jar);
                }
                Faults.assertUnhealthyButAlive(jar);

                disk.free();
                Faults.assertRecoversBy("SQLite disk full", jar, ids);
                boolean walTruncated = Poll.until(Duration.ofSeconds(5), Duration.ofMillis(20),
                        () -> Files.size(wal) < walBeforeFault / 4);
                assertTrue(walTruncated, "the write-ahead log is cut back after the fault: it held " + walBeforeFault
                        + " bytes before it and " + Files.size(wal) + " now");
                assertTrue(disk.freeBytes() > DISK_KIB * 1024L * 3 / 4,
                        "the database keeps a quarter of the disk at most: " + disk.freeBytes() + " bytes free");
                ids.assertEveryAnswerAsPromised();
                output = jar.stopAndCollectOutput();
            }
            assertStored(database, ids.acknowledged());
        }
        Faults.assertFaultLoggedAsAFewJsonLines(output);
    }

    /**
     * Made unwritable (the directory and its files, as a mistaken {@code chmod -R} would) under a server running as an
     * ordinary user: the connections SQLite holds open keep writing, and the pool never replaces them, so writes go on
     * and stay truthful. The next start, with the directory still unwritable, is refused at once in one line; once it
     * is writable again every acknowledged plant is there.
     */
    @Test
    void aDirectoryMadeUnwritableUnderTheServerLeavesWritesGoingAndTheNextStartSaysWhy() throws Exception {
        Faults.requireRoot();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path data = Files.createDirectory(dir.resolve("data"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path database = data.resolve("plants.db");
        var ids = new Faults.Ids(1);
        String output;
        try (RunningJar jar = RunningJar.startAsNobody(dir, ENV, "--store", "sqlite:" + database,
                "--log-format", "json")) {
            for (int i = 0; i < 20; i++) {
                assertEquals(200, ids.send(jar).status(), "creates before the fault");
            }
            setWritable(data, false);
            for (int i = 0; i < 50; i++) {
                assertEquals(200, ids.send(jar).status(), "creates on the connections SQLite holds open");
            }
            assertEquals(200, Faults.status(jar, "/health"), "/health says writes commit, as they do");
            ids.assertEveryAnswerAsPromised();
            output = jar.stopAndCollectOutput();
        }
        var refused = RunningJar.runToCompletionAsNobody(dir, ENV, "--host", "127.0.0.1", "--port", "0",
                "--store", "sqlite:" + database);
        assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
        assertTrue(refused.stderr().contains("cannot open store sqlite:" + database + ": permission denied"),
                refused.stderr());
        assertFalse(refused.stderr().contains("\tat "), "one line, no stack trace: " + refused.stderr());

        setWritable(data, true);
        assertStored(database, ids.acknowledged());
        for (String line : output.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("{"), "every line is JSON: " + line);
        }
    }

    private static void setWritable(Path directory, boolean writable) throws Exception {
        Faults.run(Duration.ofSeconds(10), "chmod", "-R", writable ? "a+w" : "a-w", directory.toString());
    }

    private static void assertStored(Path database, Set<Long> acknowledged) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
             PreparedStatement find = connection.prepareStatement("SELECT count(*) FROM plants WHERE id = ?")) {
            for (long id : acknowledged) {
                find.setLong(1, id);
                try (ResultSet count = find.executeQuery()) {
                    count.next();
                    assertEquals(1, count.getInt(1), "acknowledged plant " + id + " is stored");
                }
            }
        }
        assertTrue(acknowledged.size() >= 51, "the creates before and after the fault were acknowledged");
    }
}
