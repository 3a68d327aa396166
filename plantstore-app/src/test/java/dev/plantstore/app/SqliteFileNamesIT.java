package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.PlantRequests;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One server per SQLite file, whatever name it is given: a second name for the file (a symbolic link, a hard link)
 * must not let a second server write beside the first, each checkpointing its own log over the other's plants.
 */
class SqliteFileNamesIT {

    private static final String TOKEN = "file-names-token";
    private static final Map<String, String> ENV = Map.of("PLANTSTORE_TOKENS", TOKEN);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final int PLANTS = 5;

    @TempDir
    Path dir;

    @Test
    void aSecondServerOnASymbolicLinkToTheFirstServersFileIsRefused() throws Exception {
        Files.createSymbolicLink(dir.resolve("link.db"), Path.of("w.db"));
        try (var first = RunningJar.start(dir, ENV, "--store", "sqlite:w.db")) {
            createPlants(first);

            var second = RunningJar.runToCompletion(dir, ENV, "--port", "0", "--store", "sqlite:link.db");

            assertEquals(1, second.exitCode(), second.stdout());
            assertEquals("plantstore: store sqlite:link.db is in use by another process (it holds "
                    + dir.toRealPath().resolve("w.db.lock") + ")\n", second.stderr());
        }
        try (var restarted = RunningJar.start(dir, ENV, "--store", "sqlite:w.db")) {
            assertEveryPlantHeld(restarted);
        }
    }

    @Test
    void aStoreFileWithASecondHardLinkIsRefusedUnderEitherNameUntilOneIsRemoved() throws Exception {
        try (var first = RunningJar.start(dir, ENV, "--store", "sqlite:a.db")) {
            createPlants(first);
        }
        Files.createLink(dir.resolve("b.db"), dir.resolve("a.db"));

        for (String name : new String[] {"a.db", "b.db"}) {
            var refused = RunningJar.runToCompletion(dir, ENV, "--port", "0", "--store", "sqlite:" + name);
            assertEquals(1, refused.exitCode(), refused.stdout());
            assertEquals("plantstore: store sqlite:" + name + " has 2 hard links, and a server on another of its "
                    + "names would not see this one's lock: keep one name (find / -samefile "
                    + dir.toRealPath().resolve(name) + " lists them)\n", refused.stderr());
        }

        Files.delete(dir.resolve("b.db"));
        try (var alone = RunningJar.start(dir, ENV, "--store", "sqlite:a.db")) {
            assertEveryPlantHeld(alone);
        }
    }

    private static void createPlants(RunningJar jar) throws IOException, InterruptedException {
        for (long id = 1; id <= PLANTS; id++) {
            assertEquals(200, create(jar, id, "plant " + id), "plant " + id);
        }
    }

    /** A create of another plant under each id answers 409: the id is held by the plant created before. */
    private static void assertEveryPlantHeld(RunningJar jar) throws IOException, InterruptedException {
        for (long id = 1; id <= PLANTS; id++) {
            assertEquals(409, create(jar, id, "another plant"), "plant " + id + " is held");
        }
        assertTrue(jar.process().isAlive());
    }

    private static int create(RunningJar jar, long id, String name) throws IOException, InterruptedException {
        var request = PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, name))
                .timeout(Duration.ofSeconds(10))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
