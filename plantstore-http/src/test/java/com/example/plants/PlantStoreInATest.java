package com.example.plants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PlantStoreInATest {

    private static final String TOKEN = "test-token";

    private final PlantStore store = PlantStores.inMemory();
    private final PlantStoreServer server = PlantStoreServer.start(
            PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(TOKEN))).withDocs(false), "127.0.0.1", 0);
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    @Test
    void createsAPlant() throws Exception {
        HttpRequest create = HttpRequest.newBuilder(server.uri().resolve("/plants"))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\": 1, \"name\": \"Monstera\"}"))
                .build();

        HttpResponse<String> response = client.send(create, HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode());
        assertEquals(Optional.of(new Plant("Monstera", null)), store.find(1));
    }
}
