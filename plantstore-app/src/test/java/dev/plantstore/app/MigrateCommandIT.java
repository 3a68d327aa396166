package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.testkit.PlantRequests;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar plantstore.jar migrate} brings a store to this release's schema; a server with {@code --migrate off}
 * changes no table and refuses a store behind it, naming the command.
 */
class MigrateCommandIT {

    private static final String TOKEN = "migrate-command-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void aVersion1StoreIsRefusedWithMigrateOffThenMigratedByTheCommandAndServed() throws Exception {
        String store = "sqlite:" + Version1Store.copyInto(dir);

        RunningJar.Completed refused = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_TOKENS", TOKEN),
                "--port", "0", "--store", store, "--migrate", "off");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertEquals("plantstore: store " + store + " is at schema version 1, behind this release's "
                + JdbcSchema.currentVersion() + ", and --migrate "
                + "is off: run java -jar plantstore.jar migrate with this --store as the schema's owner first\n",
                refused.stderr());

        RunningJar.Completed migrated = RunningJar.runToCompletion(dir, "migrate", "--store", store);
        assertEquals(0, migrated.exitCode(), migrated.stderr());
        assertTrue(migrated.stdout().endsWith("store " + store + " migrated from schema version 1 to "
                        + JdbcSchema.currentVersion() + "\n"),
                migrated.stdout());
        RunningJar.Completed again = RunningJar.runToCompletion(dir, "migrate", "--store", store);
        assertEquals("store " + store + " is at schema version " + JdbcSchema.currentVersion() + " already\n",
                again.stdout());

        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_MIGRATE", "off"),
                "--store", store)) {
            assertEquals(409, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                    PlantRequests.plantJson(-1, "Not the fern")).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode(), "the version-1 plant -1 is there");
            assertEquals(204, HTTP.send(PlantRequests.delete(jar.uri("/plants/9223372036854775807"), TOKEN).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
        }
    }

    @Test
    void theCommandRefusesASqliteStoreAServerHasOpen() throws Exception {
        String store = "sqlite:" + dir.resolve("plants.db");
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", store)) {
            RunningJar.Completed refused = RunningJar.runToCompletion(dir, "migrate", "--store", store);
            assertEquals(1, refused.exitCode());
            assertTrue(refused.stderr().startsWith("plantstore: store " + store + " is in use by another process"),
                    refused.stderr());
            assertTrue(jar.process().isAlive());
        }
    }

    /** A mistyped name would otherwise get a new, empty store, reported as migrated. */
    @Test
    void aSqliteFileThatDoesNotExistIsRefusedUnlessCreateIsGiven() throws Exception {
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, "migrate", "--store", "sqlite:typo.db");
        assertEquals(2, refused.exitCode(), refused.stdout());
        assertEquals("plantstore: store sqlite:typo.db does not exist: name the store the server runs on, or add "
                + "--create to make a new, empty one\n", refused.stderr());
        assertEquals("", refused.stdout());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "no file made");
        }

        RunningJar.Completed created = RunningJar.runToCompletion(dir, "migrate", "--create", "--store",
                "sqlite:typo.db");
        assertEquals(0, created.exitCode(), created.stderr());
        assertTrue(created.stdout().endsWith("store sqlite:typo.db migrated from schema version 0 to "
                + JdbcSchema.currentVersion() + "\n"), created.stdout());
        assertTrue(Files.isRegularFile(dir.resolve("typo.db")));
    }

    @Test
    void theCommandRefusesTheMemoryStore() throws Exception {
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, "migrate", "--store", "memory");
        assertEquals(2, refused.exitCode());
        assertEquals("plantstore: migrate needs --store sqlite:PATH or jdbc:postgresql:...; the memory store has no "
                + "schema\n", refused.stderr());
    }
}
