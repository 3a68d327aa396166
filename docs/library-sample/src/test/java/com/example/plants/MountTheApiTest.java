package com.example.plants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Your application, with the API mounted, started on a free port for each test. */
class MountTheApiTest {

    private static final String TOKEN = "test-token";

    private final PlantStore store = PlantStores.inMemory();
    private final Javalin app = MountTheApi.createApp(store, TOKEN).start("127.0.0.1", 0);
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        app.stop();
        store.close();
    }

    @Test
    void createsAPlantThroughTheMountedApi() throws Exception {
        HttpRequest create = HttpRequest.newBuilder(uri("/plants"))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\": 1, \"name\": \"Monstera\"}"))
                .build();

        HttpResponse<String> response = client.send(create, HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode());
        assertEquals(Optional.of(new Plant("Monstera", null)), store.find(1));
    }

    @Test
    void leavesTheApplicationsOwnRoutesAsTheyAre() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals("your own routes are untouched", response.body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + app.port() + path);
    }
}
