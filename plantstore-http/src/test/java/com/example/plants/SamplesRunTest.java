package com.example.plants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.kafka.KafkaSink;
import dev.plantstore.sqlite.SqliteFile;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.Poll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library page's samples run as a user would run them (docs/library.md quotes these files;
 * LibraryPageSamplesTest checks). The sample project that mounts the API is run by LibrarySampleIT.
 */
class SamplesRunTest {

    private static final String TOKEN = "sample-token";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static HttpResponse<String> create(URI base, String json) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(base.resolve("/plants"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int get(URI uri) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void theServerSampleServesUntilInterruptedThenStops() throws Exception {
        int port;
        try (var probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        URI base = URI.create("http://127.0.0.1:" + port + "/");
        var failure = new AtomicReference<Throwable>();
        var serving = new Thread(() -> {
            try {
                RunTheServer.main(new String[] {TOKEN, Integer.toString(port)});
            } catch (InterruptedException e) {
                // How the sample is told to stop.
            } catch (RuntimeException e) {
                failure.set(e);
            }
        });
        serving.start();
        awaitHealthy(base, serving);

        assertEquals(200, create(base, "{\"id\": 7, \"name\": \"Ivy\"}").statusCode());
        serving.interrupt();
        serving.join(Duration.ofSeconds(10).toMillis());

        assertNull(failure.get());
        assertFalse(serving.isAlive(), "the sample did not stop");
        assertThrows(ConnectException.class, () -> get(base.resolve("/health")));
    }

    private static void awaitHealthy(URI base, Thread serving) throws InterruptedException {
        boolean healthy = Poll.until(Duration.ofSeconds(20), Duration.ofMillis(20), () -> {
            if (!serving.isAlive()) {
                throw new AssertionError("the sample server stopped before it answered /health");
            }
            try {
                return get(base.resolve("/health")) == 200;
            } catch (IOException e) {
                return false;
            }
        });
        assertTrue(healthy, "the sample server never answered /health");
    }

    @Test
    void theStoreSampleCreatesFindsDeletesAndIsRefusedAnEmptyName() {
        var output = new ByteArrayOutputStream();
        try (PlantStore store = PlantStores.inMemory()) {
            UseTheStore.run(store, new PrintStream(output, true, StandardCharsets.UTF_8));
        }
        assertEquals("""
                created Plant[name=Monstera, tag=aroid]
                found Plant[name=Monstera, tag=aroid]
                deleted true
                refused: name must not be empty
                """, output.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theKafkaSampleSendsTheRecordsOfACreateAndADelete(@TempDir Path dir) throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        broker.createTopic(KafkaSink.DEFAULT_TOPIC, 1);
        try (SqliteFile file = SqliteFile.open(dir.resolve("plants.db"));
             PlantStore store = SendEventsToKafka.open(file, broker.bootstrapServers())) {
            store.create(new NewPlant(1, "Monstera", "aroid"));
            store.delete(1);
        }
        assertEquals(List.of("plant.created {\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}",
                        "plant.deleted {\"id\":1}"),
                broker.read(KafkaSink.DEFAULT_TOPIC, 2, Duration.ofSeconds(60)).stream()
                        .map(record -> record.header("ce_type") + " " + record.value()).toList());
    }
}
