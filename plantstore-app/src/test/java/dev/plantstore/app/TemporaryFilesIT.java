package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server leaves nothing in its temporary folder: SQLite's driver unpacks its native library there, and a stop ends
 * with Runtime.halt, which skips the driver's delete-on-exit.
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
}
