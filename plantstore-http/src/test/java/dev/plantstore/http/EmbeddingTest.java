package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.Javalin;
import io.javalin.testtools.HttpClient;
import io.javalin.testtools.JavalinTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The API mounted onto an application that owns the rest of its routes and its error handling. */
class EmbeddingTest {

    private final PlantStore store = PlantStores.inMemory();

    private Javalin hostApp() {
        return hostApp(TestApi.api(store));
    }

    private Javalin hostApp(PlantStoreApi api) {
        return Javalin.create(config -> {
            api.mount(config);
            config.routes.get("/", ctx -> ctx.result("host home"));
            config.routes.get("/plants-report", ctx -> ctx.result("host report"));
            // Javalin runs a status-wide error handler on every response with that status, the API's own 404s
            // included; a host that wants its pages leaves the API's JSON alone by scoping them to HTML.
            config.routes.error(404, "html", ctx -> ctx.result("host 404"));
        });
    }

    @Test
    void mountedApiServesCreateAndDelete() {
        JavalinTest.test(hostApp(), (server, client) -> {
            assertEquals("{\"name\":\"Fern\"}", create(client, "{\"id\":1,\"name\":\"Fern\"}").body().string());
            assertEquals(204, delete(client, "1").code());
            assertEquals("no plant with id 1", assertError(delete(client, "1"), 404));
        });
    }

    @Test
    void theApiRegisteredAsAPluginInOneLineServesCreateAndDeleteBesideTheHostsRoutes() {
        Javalin app = Javalin.create(config -> {
            config.registerPlugin(TestApi.api(store));
            config.routes.get("/", ctx -> ctx.result("host home"));
        });
        JavalinTest.test(app, (server, client) -> {
            assertEquals("{\"name\":\"Fern\"}", create(client, "{\"id\":1,\"name\":\"Fern\"}").body().string());
            assertEquals(204, delete(client, "1").code());
            assertEquals("host home", client.get("/").body().string());
            assertEquals(401, client.delete("/plants/1").code());
        });
    }

    @Test
    void hostRoutesNeedNoTokenEvenWhenTheyStartWithPlants() {
        JavalinTest.test(hostApp(), (server, client) -> {
            assertEquals("host home", client.get("/").body().string());
            assertEquals("host report", client.get("/plants-report").body().string());
        });
    }

    @Test
    void hostKeepsItsOwnNotFoundHandling() {
        JavalinTest.test(hostApp(), (server, client) -> assertEquals("host 404",
                client.get("/elsewhere", request -> request.header("Accept", "text/html")).body().string()));
    }

    @Test
    void apiRoutesStillRequireAToken() {
        JavalinTest.test(hostApp(), (server, client) -> assertError(client.get("/plants"), 401));
    }

    private static List<String> documentedHealthPaths(HttpClient client) throws Exception {
        JsonNode paths = new ObjectMapper().readTree(client.get("/openapi.json").body().string()).get("paths");
        var health = new ArrayList<String>();
        paths.fieldNames().forEachRemaining(path -> {
            if (path.startsWith("/health")) {
                health.add(path);
            }
        });
        return health;
    }

    @Test
    void mountedApiServesEveryHealthPathItsDocumentLists() {
        JavalinTest.test(hostApp(), (server, client) -> {
            List<String> documented = documentedHealthPaths(client);
            assertEquals(List.of("/health", "/health/ready", "/health/live"), documented);
            for (String path : documented) {
                var response = client.get(path);
                assertEquals(200, response.code(), path);
                assertEquals("{\"status\":\"UP\"}", response.body().string(), path);
            }
        });
    }

    @Test
    void withoutHealthNoHealthPathIsServedOrDocumented() {
        JavalinTest.test(hostApp(TestApi.api(store).withHealth(false)), (server, client) -> {
            assertEquals(List.of(), documentedHealthPaths(client));
            // /openapi.json is converted from the served /openapi.yaml, so this covers both.
            assertTrue(client.get("/openapi.json").body().string().contains("\"/plants/{id}\""));
            for (String path : List.of("/health", "/health/ready", "/health/live")) {
                assertEquals(404, client.get(path, request -> request.header("Accept", "application/json")).code(),
                        path);
            }
        });
    }

    /** docs/library.md: a host route under /plants needs the token, and answers only if registered before mount. */
    @Test
    void aHostRouteUnderPlantsNeedsTheTokenAndAnswersOnlyIfRegisteredBeforeMount() {
        PlantStoreApi api = TestApi.api(store);
        Javalin before = Javalin.create(config -> {
            config.routes.get("/plants/count", ctx -> ctx.result("host count"));
            api.mount(config);
        });
        JavalinTest.test(before, (server, client) -> {
            assertEquals(401, client.get("/plants/count").code());
            assertEquals("host count",
                    client.get("/plants/count", request -> request.header("Authorization", TestApi.BEARER))
                            .body().string());
        });
        Javalin after = Javalin.create(config -> {
            api.mount(config);
            config.routes.get("/plants/count", ctx -> ctx.result("host count"));
        });
        JavalinTest.test(after, (server, client) -> {
            assertEquals(401, client.get("/plants/count").code());
            assertEquals(405,
                    client.get("/plants/count", request -> request.header("Authorization", TestApi.BEARER)).code());
        });
    }
}
