package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TokenVerifier;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.testtools.HttpClient;
import io.javalin.testtools.JavalinTest;
import io.javalin.testtools.Response;
import io.javalin.testtools.TestCase;
import io.javalin.testtools.TestConfig;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/** What the HTTP tests share: a server over a given store, requests with and without a token, and Error checks. */
final class TestApi {

    static final String TOKEN = "s3cret-Token_for.tests";
    static final String BEARER = "Bearer " + TOKEN;

    private static final java.net.http.HttpClient RAW_CLIENT = TestTransport.client();

    /**
     * Every exchange checked against openapi.yaml; no cookie clearing (the API sets none); no log capture, since
     * Javalin's would swallow what {@link LogCapture} reads.
     */
    private static final TestConfig CONTRACT_CHECKED = new TestConfig(false, false, RAW_CLIENT);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TestApi() {
    }

    static PlantStoreApi api(PlantStore store) {
        return PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(TOKEN)));
    }

    /**
     * Runs the test against the standalone server's application on a free port, over the protocol
     * {@link TestTransport} names.
     */
    static void withServer(PlantStoreApi api, TestCase test) {
        JavalinTest.test(server(api, TestTransport::listen), CONTRACT_CHECKED, (server, client) -> {
                    TestTransport.aim(client, server.port());
                    test.accept(server, client);
                });
    }

    /** The standalone server's application over {@code api}, not started, listening as {@code listen} sets. */
    static Javalin server(PlantStoreApi api, Consumer<JavalinConfig> listen) {
        return PlantStoreServer.create(api, java.time.Duration.ZERO, api.store()::isAvailable,
                ClientLimits.defaults(), listen);
    }

    static void withServer(PlantStore store, TestCase test) {
        withServer(api(store), test);
    }

    static Response create(HttpClient client, String json) {
        return post(client, BodyPublishers.ofString(json), request -> request
                .header("Authorization", BEARER)
                .header("Content-Type", "application/json"));
    }

    static Response post(HttpClient client, BodyPublisher body,
                         UnaryOperator<io.javalin.testtools.Request.Builder> headers) {
        return client.request("/plants", request -> headers.apply(request.post(body)));
    }

    static Response delete(HttpClient client, String id) {
        return client.request("/plants/" + id, request -> request.delete(BodyPublishers.noBody())
                .header("Authorization", BEARER));
    }

    /** Any method, including those the testtools request builder lacks (OPTIONS, HEAD). */
    static Response send(HttpClient client, String method, String path, String... headerPairs) {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(client.getOrigin() + path))
                .method(method, BodyPublishers.noBody());
        for (int i = 0; i < headerPairs.length; i += 2) {
            request.header(headerPairs[i], headerPairs[i + 1]);
        }
        try {
            return new Response(RAW_CLIENT.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(Response response) {
        try {
            return MAPPER.readTree(response.body().string());
        } catch (Exception e) {
            throw new AssertionError("body is not JSON: " + response.body().string(), e);
        }
    }

    /**
     * Asserts the documented error shape: the status, {@code application/json}, and a body that is exactly
     * {@code {"error": status, "message": non-empty text}}. Returns the message.
     */
    static String assertError(Response response, int status) {
        String body = response.body().string();
        assertEquals(status, response.code(), () -> "status; body was " + body);
        assertEquals("application/json", response.headers().get("Content-Type").get(0).split(";")[0]);
        JsonNode error = json(response);
        assertEquals(2, error.size(), () -> "exactly error and message: " + body);
        assertTrue(error.get("error").isInt(), body);
        assertEquals(status, error.get("error").intValue(), body);
        assertTrue(error.get("message").isTextual(), body);
        String message = error.get("message").textValue();
        assertFalse(message.isBlank(), body);
        assertFalse(body.contains("Exception") || body.contains("\tat "), () -> "no stack trace: " + body);
        return message;
    }
}
