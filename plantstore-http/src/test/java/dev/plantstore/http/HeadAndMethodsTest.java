package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.testtools.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** HEAD is GET without the body on every GET route, and every other method on those routes is a 405 with Allow. */
class HeadAndMethodsTest {

    private static final List<String> OTHER_METHODS = List.of("POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final PlantStore store = PlantStores.inMemory();

    private static String header(Response response, String name) {
        List<String> values = response.headers().get(name);
        return values == null ? null : String.join(",", values);
    }

    @ParameterizedTest(name = "HEAD {0}")
    @ValueSource(strings = {"/health", "/health/live", "/health/ready", "/openapi.yaml", "/openapi.json", "/docs",
        "/docs/init.js", "/docs/swagger-ui.css"})
    void headAnswersAsGetDoesWithoutTheBody(String path) {
        withServer(store, (server, client) -> {
            var get = TestApi.send(client, "GET", path);
            var head = TestApi.send(client, "HEAD", path);
            assertEquals(get.code(), head.code());
            assertEquals(header(get, "Content-Type"), header(head, "Content-Type"));
            // A body larger than Jetty's aggregation buffer goes out chunked, without a length, for GET and HEAD alike.
            String length = header(get, "Content-Length");
            if (length != null || path.startsWith("/health")) {
                assertEquals(Integer.toString(get.body().string().getBytes(StandardCharsets.UTF_8).length), length);
            }
            assertEquals(length, header(head, "Content-Length"));
            assertEquals("", head.body().string());
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/health", "/health/live", "/health/ready", "/openapi.yaml", "/openapi.json", "/docs",
        "/docs/init.js"})
    void otherMethodsAre405AllowingGetAndHead(String path) {
        withServer(store, (server, client) -> {
            for (String method : OTHER_METHODS) {
                var response = TestApi.send(client, method, path);
                assertError(response, 405);
                assertEquals("GET, HEAD", header(response, "Allow"), method + " " + path);
                assertTrue(header(response, "X-Content-Type-Options") != null, method + " " + path);
            }
        });
    }
}
