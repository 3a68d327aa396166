package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar plantstore.jar backup} copies a SQLite store while clients keep creating plants; the copy holds
 * every plant acknowledged before it began.
 */
class SqliteBackupIT {

    private static final String TOKEN = "backup-token-0001";
    private static final int CLIENTS = 8;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void aCopyTakenUnderLoadHoldsEveryPlantAcknowledgedBeforeItBegan() throws Exception {
        String store = "sqlite:" + dir.resolve("plants.db");
        Path backup = dir.resolve("backup.db");
        Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicLong nextId = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", store)) {
            List<Future<?>> running = new ArrayList<>();
            for (int client = 0; client < CLIENTS; client++) {
                running.add(clients.submit(() -> {
                    while (loading.get()) {
                        long id = nextId.incrementAndGet();
                        var answer = HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                                PlantRequests.plantJson(id, "Plant " + id)).build(),
                                HttpResponse.BodyHandlers.discarding());
                        assertEquals(200, answer.statusCode());
                        acknowledged.add(id);
                    }
                    return null;
                }));
            }
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(10), () -> acknowledged.size() >= 500),
                    "the clients created 500 plants");
            Set<Long> beforeTheCopy = new HashSet<>(acknowledged);
            RunningJar.Completed copied = RunningJar.runToCompletion(dir, "backup", backup.toString(),
                    "--store", store);
            int acknowledgedWhileCopying = acknowledged.size() - beforeTheCopy.size();
            loading.set(false);
            for (Future<?> client : running) {
                client.get();
            }
            assertEquals(0, copied.exitCode(), copied.stderr());
            assertEquals("store " + store + " copied into " + backup + "\n", copied.stdout());
            assertTrue(acknowledgedWhileCopying > 0, "the clients kept creating while the copy was taken");

            Set<Long> inTheCopy = new HashSet<>();
            try (Connection connection = DurableSqlite.dataSource(backup).getConnection();
                 Statement statement = connection.createStatement()) {
                try (ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                    check.next();
                    assertEquals("ok", check.getString(1));
                }
                try (ResultSet ids = statement.executeQuery("SELECT id FROM plants")) {
                    while (ids.next()) {
                        inTheCopy.add(ids.getLong(1));
                    }
                }
            }
            assertTrue(inTheCopy.containsAll(beforeTheCopy), "every plant acknowledged before the copy is in it");
        } finally {
            loading.set(false);
            clients.shutdownNow();
        }
    }

    @Test
    void theCommandRefusesAnExistingFileAndPostgres() throws Exception {
        RunningJar.Completed existing = RunningJar.runToCompletion(dir, "backup", dir.toString(),
                "--store", "sqlite:" + dir.resolve("plants.db"));
        assertEquals(2, existing.exitCode());
        assertEquals("plantstore: " + dir + " exists; the backup goes into a new file\n", existing.stderr());
        RunningJar.Completed postgres = RunningJar.runToCompletion(dir, "backup", dir.resolve("b.db").toString(),
                "--store", "jdbc:postgresql://127.0.0.1/plants");
        assertEquals(2, postgres.exitCode());
        assertTrue(postgres.stderr().contains("back up PostgreSQL with its own tools"), postgres.stderr());
    }
}
