package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The version and the commit the jar was built from, as --version, the start-up output and the metrics say them. */
class VersionIT {

    @TempDir
    Path dir;

    @Test
    void versionPrintsTheVersionAndTheCommitAndExitsZero() throws Exception {
        var completed = RunningJar.runToCompletion(dir, "--version");
        assertEquals(0, completed.exitCode(), completed.stderr());
        assertEquals(expectedLine() + "\n", completed.stdout());
        assertEquals("", completed.stderr());
    }

    @Test
    void versionIsAnsweredBeforeAnyOtherArgumentIsRead() throws Exception {
        var completed = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_PORT", "bad"), "--port", "nonsense",
                "--version");
        assertEquals(0, completed.exitCode(), completed.stderr());
        assertEquals(expectedLine() + "\n", completed.stdout());
    }

    @Test
    void startUpSaysTheVersionFirstAndTheMetricsSayItToo() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", "version-token"), "--store", "memory",
                "--management-port", "0")) {
            assertEquals(expectedLine(), jar.outputSoFar().lines().findFirst().orElseThrow(), jar.outputSoFar());
            String metrics = jar.metrics();
            assertTrue(metrics.lines().anyMatch(("plantstore_build_info{commit=\"" + expectedCommit()
                    + "\",version=\"" + System.getProperty("plantstore.version") + "\"} 1")::equals), metrics);
        }
    }

    @Test
    void aJsonStartUpSaysTheVersionInItsFirstLine() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", "version-token"), "--store", "memory",
                "--log-format", "json")) {
            String first = jar.outputSoFar().lines().findFirst().orElseThrow();
            assertTrue(first.contains("\"message\":\"" + expectedLine() + "\""), first);
        }
    }

    private static String expectedLine() throws IOException, InterruptedException {
        String version = System.getProperty("plantstore.version");
        assertTrue(version != null && !version.isBlank(), "plantstore.version names the build's version");
        return "plantstore " + version + " (commit " + expectedCommit() + ")";
    }

    /** The clone's commit as git itself abbreviates it to seven digits; a tree that is no clone builds as unknown. */
    private static String expectedCommit() throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "rev-parse", "--short=7", "HEAD").directory(Path.of("..").toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String printed = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(git.waitFor(10, TimeUnit.SECONDS), "git rev-parse ends");
        return git.exitValue() == 0 ? printed : "unknown";
    }
}
