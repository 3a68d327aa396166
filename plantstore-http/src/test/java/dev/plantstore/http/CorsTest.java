package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.send;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorsTest {

    private static final String DOCS_SITE = "https://docs.example.com";

    private final PlantStore store = PlantStores.inMemory();

    private PlantStoreApi allowing(String... origins) {
        return TestApi.api(store).withCorsOrigins(List.of(origins));
    }

    @Test
    void withNoOriginsConfiguredThereAreNoCorsHeadersAndPreflightNeedsAToken() {
        withServer(TestApi.api(store), (server, client) -> {
            var preflight = send(client, "OPTIONS", "/plants", "Origin", DOCS_SITE,
                    "Access-Control-Request-Method", "POST");
            assertError(preflight, 401);
            assertNull(preflight.headers().get("Access-Control-Allow-Origin"));
        });
    }

    @Test
    void preflightFromAListedOriginIs204WithoutAToken() {
        withServer(allowing(DOCS_SITE), (server, client) -> {
            var preflight = send(client, "OPTIONS", "/plants", "Origin", DOCS_SITE,
                    "Access-Control-Request-Method", "POST",
                    "Access-Control-Request-Headers", "authorization,content-type");
            assertEquals(204, preflight.code());
            assertEquals(List.of(DOCS_SITE), preflight.headers().get("Access-Control-Allow-Origin"));
            assertEquals(List.of("POST"), preflight.headers().get("Access-Control-Allow-Methods"));
            assertEquals(List.of("Authorization, Content-Type"),
                    preflight.headers().get("Access-Control-Allow-Headers"));
            assertEquals(List.of("Origin"), preflight.headers().get("Vary"));
        });
    }

    @Test
    void preflightForAPlantAllowsDelete() {
        withServer(allowing(DOCS_SITE), (server, client) -> {
            var preflight = send(client, "OPTIONS", "/plants/1", "Origin", DOCS_SITE,
                    "Access-Control-Request-Method", "DELETE");
            assertEquals(204, preflight.code());
            assertEquals(List.of("DELETE"), preflight.headers().get("Access-Control-Allow-Methods"));
        });
    }

    @Test
    void requestsFromAListedOriginStillNeedATokenAndCarryTheAllowOrigin() {
        withServer(allowing(DOCS_SITE), (server, client) -> {
            var anonymous = client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                    .header("Origin", DOCS_SITE));
            assertError(anonymous, 401);
            assertEquals(List.of(DOCS_SITE), anonymous.headers().get("Access-Control-Allow-Origin"));

            var created = TestApi.post(client, BodyPublishers.ofString("{\"id\":1,\"name\":\"Fern\"}"),
                    request -> request.header("Authorization", BEARER).header("Content-Type", "application/json")
                            .header("Origin", DOCS_SITE));
            assertEquals(200, created.code());
            assertEquals(List.of(DOCS_SITE), created.headers().get("Access-Control-Allow-Origin"));
        });
    }

    @Test
    void anotherOriginGetsNoCorsHeaders() {
        withServer(allowing(DOCS_SITE), (server, client) -> {
            var preflight = send(client, "OPTIONS", "/plants", "Origin", "https://evil.example",
                    "Access-Control-Request-Method", "POST");
            assertError(preflight, 401);
            assertNull(preflight.headers().get("Access-Control-Allow-Origin"));
        });
    }

    @Test
    void starAllowsAnyOrigin() {
        withServer(allowing("*"), (server, client) -> assertEquals(List.of("https://anyone.example"),
                send(client, "OPTIONS", "/plants", "Origin", "https://anyone.example",
                        "Access-Control-Request-Method", "POST").headers().get("Access-Control-Allow-Origin")));
    }

    @Test
    void theDocumentCarriesCorsHeadersForAListedOrigin() {
        withServer(allowing(DOCS_SITE), (server, client) -> assertEquals(List.of(DOCS_SITE),
                client.get("/openapi.json", request -> request.header("Origin", DOCS_SITE))
                        .headers().get("Access-Control-Allow-Origin")));
    }

    @ParameterizedTest(name = "origin {0}")
    @ValueSource(strings = {"docs.example.com", "https://docs.example.com/", "https://docs.example.com/path",
            "ftp://x", ""})
    void anOriginThatIsNotSchemeHostAndPortIsRefusedBySettingOrCheckingIt(String origin) {
        assertThrows(IllegalArgumentException.class, () -> allowing(origin));
        assertThrows(IllegalArgumentException.class, () -> PlantStoreApi.requireCorsOrigin(origin));
    }
}
