package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

/**
 * A server leaves nothing in its temporary folder: SQLite's driver unpacks its native library there, and a stop ends
 * with Runtime.halt, which skips the driver's delete-on-exit. No run touches the copies other processes unpacked
 * there either: the driver deletes those it thinks unused, and logs an ERROR when another process deleted one first.
 */
class TemporaryFilesIT {

    @TempDir
    Path dir;

    @Test
    void aSqliteServerStoppedWithSigtermLeavesNoFileInItsTemporaryFolder() throws Exception {
        Path temporary = Files.createDirectory(dir.resolve("tmp"));
        Path work = Files.createDirectory(dir.resolve("work"));
        try (RunningJar jar = RunningJar.start(work, Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + temporary,
                "PLANTSTORE_DRAIN_SECONDS", "0"), "--store", "sqlite:plantstore.db")) {
            jar.process().destroy();
            assertTrue(jar.process().waitFor(30, TimeUnit.SECONDS),
                    "the server stops on SIGTERM");
            assertEquals(0, jar.process().exitValue(), jar.outputSoFar());
        }
        try (Stream<Path> left = Files.list(temporary)) {
            assertEquals(List.of(), left.map(file -> file.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void everyCommandOnASqliteStoreLeavesAnotherProcesssCopyOfTheNativeLibraryAlone() throws Exception {
        Path temporary = Files.createDirectory(dir.resolve("tmp"));
        Path work = Files.createDirectory(dir.resolve("work"));
        // What a process exiting at this moment leaves for an instant: its lock file deleted, its library not yet.
        String othersCopy = "sqlite-" + SQLiteJDBCLoader.getVersion() + "-" + UUID.randomUUID() + "-libsqlitejdbc.so";
        Files.writeString(temporary.resolve(othersCopy), "another process's library");
        Map<String, String> env = Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + temporary);
        List<List<String>> commands = List.of(
                List.of("migrate", "--create", "--store", "sqlite:plantstore.db"),
                List.of("webhooks", "undeliverable", "--store", "sqlite:plantstore.db"),
                List.of("backup", "copy.db", "--store", "sqlite:plantstore.db"));
        for (List<String> command : commands) {
            RunningJar.Completed done = RunningJar.runToCompletion(work, env, command.toArray(String[]::new));
            assertEquals(0, done.exitCode(), command + ": " + done.stderr());
            try (Stream<Path> left = Files.list(temporary)) {
                assertEquals(List.of(othersCopy), left.map(file -> file.getFileName().toString()).toList(),
                        String.join(" ", command));
            }
        }
    }
}
