package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the jar must not read, renamed over the tokens file while it runs, on a real file system: it is refused
 * without being read, in one log line, and the watch goes on, so that a valid file put back afterwards is in use.
 * Heavy: each test waits out the file's 2 s looks four to eight times.
 */
@Tag("heavy")
class TokensFileReloadIT {

    private static final String OLD_TOKEN = "old-file-token";
    private static final String NEW_TOKEN = "new-file-token";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private Path privateFile(String name, String content) throws Exception {
        Path file = Files.writeString(dir.resolve(name), content);
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aFifoIsRefusedWithoutStoppingTheWatch() throws Exception {
        replacedWhileRunningThenPutBack(SpecialFiles.fifo(dir.resolve("tokens.fifo")),
                "is a FIFO, not a regular file");
    }

    /** A whole read of this file would throw OutOfMemoryError ("Required array size too large") at any heap size. */
    @Test
    void aSparseFileOverTwoGibibytesIsRefusedWithoutStoppingTheWatch() throws Exception {
        replacedWhileRunningThenPutBack(SpecialFiles.sparse(dir.resolve("tokens.huge"), SpecialFiles.OVER_TWO_GIB),
                "is larger than 1 MiB (" + SpecialFiles.OVER_TWO_GIB + " bytes)");
    }

    /**
     * Starts the jar on a file holding {@link #OLD_TOKEN}, renames {@code replacement} over it, waits until the
     * server logs its refusal ({@code reason}), then renames a valid file over it that revokes the old token and
     * adds {@link #NEW_TOKEN}: the new token must come into use and the old one be refused.
     */
    private void replacedWhileRunningThenPutBack(Path replacement, String reason) throws Exception {
        Path tokens = privateFile("tokens", OLD_TOKEN + "\n");
        // No limit on refused tokens: the new token is refused at each ask until the file is read again.
        try (var jar = RunningJar.start(dir, Map.of(), "--store", "memory", "--auth-failure-limit", "0",
                "--tokens-file", tokens.toString())) {
            assertEquals(404, deleteStatus(jar, OLD_TOKEN));
            Files.move(replacement, tokens, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            String refusal = "tokens file " + tokens + " changed but is refused (tokens file " + tokens + " " + reason
                    + ")";
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(100),
                    () -> jar.outputSoFar().contains(refusal)), () -> "no refusal logged:\n" + jar.outputSoFar());
            assertEquals(404, deleteStatus(jar, OLD_TOKEN), "the tokens read before stay in use");

            Files.move(privateFile("tokens.valid", NEW_TOKEN + "\n"), tokens, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(200),
                    () -> deleteStatus(jar, NEW_TOKEN) == 404), () -> "the new token is not accepted:\n"
                    + jar.outputSoFar());
            assertEquals(401, deleteStatus(jar, OLD_TOKEN), "the revoked token is refused");
            assertEquals(1, jar.outputSoFar().lines().filter(line -> line.contains("changed but is refused")).count(),
                    () -> "the refusal is logged once:\n" + jar.outputSoFar());
        }
    }

    /** 404 when the token is accepted (there is no such plant), 401 when it is refused. */
    private static int deleteStatus(RunningJar jar, String token) throws Exception {
        return HTTP.send(PlantRequests.delete(jar.uri("/plants/1"), token).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
