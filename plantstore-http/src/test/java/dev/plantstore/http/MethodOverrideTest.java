package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.ErrorResponses;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The method is the request line's: a header asking for another one is refused on every path, so that what a proxy
 * filtering by method let through, what was done, and what the access line says agree.
 */
class MethodOverrideTest {

    private final PlantStore store = PlantStores.inMemory();
    private final PlantStoreServer server = PlantStoreServer.start(TestApi.api(store), "127.0.0.1", 0);

    @AfterEach
    void stop() {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override", "x-http-method-override"})
    void aMethodOverrideHeaderIsRefusedOnEveryPath(String header) {
        store.create(new NewPlant(77, "Fern"));
        for (String requestLine : List.of("POST /plants/77", "POST /plants", "DELETE /plants/77", "GET /health",
                "GET /health/live", "GET /openapi.json", "GET /docs", "GET /nowhere", "PUT /")) {
            for (String asked : List.of("DELETE", "GET", "POST", "made-up")) {
                String response = RawHttp.exchange(server.port(), requestLine + " HTTP/1.1\r\nHost: x\r\n"
                        + "Authorization: " + TestApi.BEARER + "\r\n" + header + ": " + asked + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
                ErrorResponses.assertError(response, 400);
                assertTrue(response.contains("is not supported: send the method in the request line"), response);
                assertTrue(response.contains("\r\nX-Content-Type-Options: nosniff\r\n"), response);
                assertTrue(response.contains("\r\nX-Request-Id: "), response);
            }
        }
        assertTrue(store.find(77).isPresent(), "plant 77 was not deleted");
    }
}
