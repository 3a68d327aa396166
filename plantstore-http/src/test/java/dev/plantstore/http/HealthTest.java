package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.json;
import static dev.plantstore.http.TestApi.send;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.PlantRequests;
import io.javalin.testtools.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** Liveness never looks at the store; readiness (and /health) follows the store, and goes DOWN on drain. */
class HealthTest {

    private static void assertStatus(Response response, int code, String status) {
        assertEquals(code, response.code(), response.body().string());
        assertEquals(status, json(response).get("status").textValue());
    }

    @Test
    void liveIsUpWhileTheStoreIsDownAndReadyFollowsTheStore() {
        var store = new SwitchableStore();
        withServer(store, (server, client) -> {
            assertStatus(client.get("/health/live"), 200, "UP");
            assertStatus(client.get("/health/ready"), 200, "UP");
            assertStatus(client.get("/health"), 200, "UP");
            store.setDown(true);
            assertStatus(client.get("/health/live"), 200, "UP");
            assertStatus(client.get("/health/ready"), 503, "DOWN");
            assertStatus(client.get("/health"), 503, "DOWN");
            store.setDown(false);
            assertStatus(client.get("/health/ready"), 200, "UP");
        });
    }

    @Test
    void metricsAreNeverServedOnTheApiPort() {
        withServer(PlantStores.inMemory(), (server, client) -> {
            TestApi.assertError(client.get("/metrics"), 404);
            TestApi.assertError(send(client, "GET", "/metrics", "Authorization", BEARER), 404);
        });
    }

    @Test
    void drainingTurnsReadinessDownAndKeepsServing() throws Exception {
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0)) {
            var http = HttpClient.newHttpClient();
            assertEquals(200, get(http, server, "/health/ready").statusCode());
            assertEquals(true, server.isReady());
            server.drain();
            assertEquals(false, server.isReady());
            assertEquals(503, get(http, server, "/health/ready").statusCode());
            assertEquals(503, get(http, server, "/health").statusCode());
            assertEquals(200, get(http, server, "/health/live").statusCode());
            var created = http.send(PlantRequests.create(URI.create("http://127.0.0.1:" + server.port() + "/plants"),
                    TestApi.TOKEN, PlantRequests.plantJson(1, "Fern")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, created.statusCode(), created.body());
        }
    }

    private static HttpResponse<String> get(HttpClient http, PlantStoreServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
