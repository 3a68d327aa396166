package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.json;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RoutingTest {

    private final PlantStore store = PlantStores.inMemory();

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {"/", "/plant", "/plantsx", "/health/x", "/PLANTS/1/../x"})
    void otherPathsAre404WithTheErrorBody(String path) {
        withServer(store, (server, client) -> assertError(client.get(path), 404));
    }

    @Test
    void unknownPathUnderPlantsIs404OnceAuthenticated() {
        withServer(store, (server, client) -> assertError(
                client.request("/plants/1/leaves", request -> request.get().header("Authorization", BEARER)), 404));
    }

    @ParameterizedTest(name = "{0} /plants")
    @ValueSource(strings = {"GET", "PUT", "PATCH", "DELETE", "OPTIONS"})
    void otherMethodOnPlantsIs405AllowingPost(String method) {
        withServer(store, (server, client) -> {
            var response = TestApi.send(client, method, "/plants", "Authorization", BEARER);
            assertError(response, 405);
            assertEquals(List.of("POST"), response.headers().get("Allow"));
        });
    }

    @ParameterizedTest(name = "{0} /plants/1")
    @ValueSource(strings = {"GET", "PUT", "PATCH", "POST", "OPTIONS"})
    void otherMethodOnAPlantIs405AllowingDelete(String method) {
        store.create(new NewPlant(1, "Fern"));
        withServer(store, (server, client) -> {
            var response = TestApi.send(client, method, "/plants/1", "Authorization", BEARER);
            assertError(response, 405);
            assertEquals(List.of("DELETE"), response.headers().get("Allow"));
        });
    }

    @Test
    void healthIs200UpWithoutAuthentication() {
        withServer(store, (server, client) -> {
            var response = client.get("/health");
            assertEquals(200, response.code());
            assertEquals("application/json", response.headers().get("Content-Type").get(0));
            assertEquals("UP", json(response).get("status").textValue());
            assertEquals(1, json(response).size());
        });
    }

    @Test
    void serverHeaderAdvertisesNoVersion() {
        withServer(store, (server, client) -> {
            var headers = client.get("/health").headers();
            assertNull(headers.get("Server"));
            assertNull(headers.get("X-Powered-By"));
        });
    }
}
