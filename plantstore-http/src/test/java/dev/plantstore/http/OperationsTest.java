package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import dev.plantstore.http.Operations.Operation;
import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import io.javalin.testtools.JavalinTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The table of operations decides routing, the token check, 405 and {@code Allow}, and CORS, and fails closed. */
class OperationsTest {

    private static final String ORIGIN = "https://app.example.com";
    private static final Operation WITHOUT_PERMISSION = new Operation(HandlerType.PUT, "/seeds", Optional.empty(),
            false, (routes, ctx) -> ctx.result("served"));

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Over HTTP/1.1 whatever the suite's transport: the server here is a plain Javalin one. */
    private static HttpResponse<String> send(io.javalin.testtools.HttpClient client, String method, String path,
            String... headerPairs) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(client.getOrigin() + path)).method(method,
                HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headerPairs.length; i += 2) {
            request.header(headerPairs[i], headerPairs[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Javalin serving(Operations operations) {
        ApiSettings settings = TestApi.api(PlantStores.inMemory()).withCorsOrigins(List.of(ORIGIN)).settings();
        return Javalin.create(config -> Pipeline.mount(settings, config, Optional.empty(), OptionalLibrary.CLASS_PATH,
                operations));
    }

    @Test
    void anOperationThatDeclaresNoPermissionIsRefusedToAValidTokenNotServed() {
        List<Operation> table = new ArrayList<>(Operations.PLANT_STORE.all());
        table.add(WITHOUT_PERMISSION);
        JavalinTest.test(serving(new Operations(table)), (server, client) -> {
            var refused = send(client, "PUT", "/seeds", "Authorization", TestApi.BEARER);
            assertEquals(403, refused.statusCode());
            assertFalse(refused.body().contains("served"), refused.body());
            assertTrue(refused.body().contains("declares no permission"), refused.body());
            assertEquals(401, send(client, "PUT", "/seeds").statusCode(), "the table's paths need a token");
        });
    }

    @Test
    void everyOperationOfTheInterfaceHasAPermissionAnAllowEntryAndACorsEntry() {
        JavalinTest.test(serving(Operations.PLANT_STORE), (server, client) -> {
            for (Operation operation : Operations.PLANT_STORE.all()) {
                assertTrue(operation.permission().isPresent(), operation.toString());
                String path = operation.path().replace("{id}", "1");
                String method = operation.method().name();
                var other = send(client, "PATCH", path, "Authorization", TestApi.BEARER);
                assertEquals(405, other.statusCode(), path);
                assertTrue(other.headers().firstValue("Allow").orElse("").contains(method), other.headers().toString());
                var preflight = send(client, "OPTIONS", path, "Origin", ORIGIN,
                        "Access-Control-Request-Method", method);
                assertEquals(204, preflight.statusCode(), path);
                assertTrue(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse("").contains(method),
                        path);
            }
        });
    }

    @Test
    void anOperationsPathHasAParameterOnlyAsItsLastSegment() {
        assertThrows(IllegalArgumentException.class, () -> new Operation(HandlerType.PUT, "/plants/{id}/name",
                Optional.of(Operations.Permission.CREATE), false, (routes, ctx) -> ctx.result("")));
    }
}
