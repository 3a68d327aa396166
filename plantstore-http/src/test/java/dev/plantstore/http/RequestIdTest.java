package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.send;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.testtools.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every response carries an X-Request-Id: the client's when sane, else a generated one. */
class RequestIdTest {

    private static final Pattern GENERATED = Pattern.compile("[0-9a-f]{32}");

    private static String idOf(Response response) {
        var ids = response.headers().get(RequestIds.HEADER);
        assertTrue(ids != null && ids.size() == 1, () -> "one X-Request-Id header: " + response.headers());
        return ids.get(0);
    }

    @Test
    void aRequestWithoutAnIdGetsAGeneratedOneEachTime() {
        withServer(PlantStores.inMemory(), (server, client) -> {
            String first = idOf(client.get("/health"));
            String second = idOf(client.get("/health"));
            assertTrue(GENERATED.matcher(first).matches(), first);
            assertNotEquals(first, second);
        });
    }

    @Test
    void aSaneIdFromTheClientIsSentBack() {
        String longest = "a".repeat(RequestIds.MAX_LENGTH);
        withServer(PlantStores.inMemory(), (server, client) -> {
            assertEquals("req-42/a.b_c~d:e+f=", idOf(send(client, "GET", "/health", "X-Request-Id",
                    "req-42/a.b_c~d:e+f=")));
            String uuid = "9f0c6a8e-3b1d-4c2e-8f7a-1d2e3f4a5b6c";
            assertEquals(uuid, idOf(send(client, "GET", "/health", "X-Request-Id", uuid)));
            assertEquals(longest, idOf(send(client, "GET", "/health", "X-Request-Id", longest)));
        });
    }

    @Test
    void anInsaneIdIsReplaced() {
        withServer(PlantStores.inMemory(), (server, client) -> {
            for (String insane : new String[] {"a".repeat(RequestIds.MAX_LENGTH + 1), "two words", "tab\there",
                    "a] forged [b", "quote\"d", "back\\slash", "{json}", "semi;colon", "<tag>", "per%25cent"}) {
                String id = idOf(send(client, "GET", "/health", "X-Request-Id", insane));
                assertTrue(GENERATED.matcher(id).matches(), () -> insane + " replaced by " + id);
            }
        });
    }

    @Test
    void errorResponsesCarryTheIdToo() {
        withServer(PlantStores.inMemory(), (server, client) -> {
            assertEquals("no-token", idOf(send(client, "DELETE", "/plants/1", "X-Request-Id", "no-token")));
            assertEquals("nowhere", idOf(send(client, "GET", "/nowhere", "X-Request-Id", "nowhere")));
            assertEquals("wrong-method", idOf(send(client, "GET", "/plants", "X-Request-Id", "wrong-method",
                    "Authorization", BEARER)));
            assertEquals("bad-id", idOf(send(client, "DELETE", "/plants/x", "X-Request-Id", "bad-id",
                    "Authorization", BEARER)));
            assertEquals("absent", idOf(send(client, "DELETE", "/plants/1", "X-Request-Id", "absent",
                    "Authorization", BEARER)));
            Response invalidBody = client.request("/plants", request -> request
                    .post(java.net.http.HttpRequest.BodyPublishers.ofString("{broken"))
                    .header("Authorization", BEARER).header("Content-Type", "application/json")
                    .header("X-Request-Id", "broken-body"));
            assertError(invalidBody, 400);
            assertEquals("broken-body", idOf(invalidBody));
        });
    }

    @Test
    void aRequestJettyRefusesBeforeAnyRouteStillGetsAnId() throws IOException {
        assertGeneratedId(rawExchange("GARBAGE\r\n\r\n"), "HTTP/1.1 400 ");
    }

    @Test
    void anIdBeyondAsciiIsReplaced() throws IOException {
        assertGeneratedId(rawExchange("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: caf\u00e9\r\n"
                + "Connection: close\r\n\r\n"), "HTTP/1.1 200 ");
    }

    private static void assertGeneratedId(String response, String statusLine) {
        assertTrue(response.startsWith(statusLine), response);
        assertTrue(Pattern.compile("\r\nX-Request-Id: [0-9a-f]{32}\r\n").matcher(response).find(), response);
    }

    private static String rawExchange(String request) throws IOException {
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0);
             var socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aFailureIsReferencedByTheRequestIdInTheAnswerAndTheLog() {
        PlantStore broken = new PlantStore() {
            @Override
            public CreateResult create(NewPlant plant) {
                throw new IllegalStateException("broken");
            }

            @Override
            public boolean delete(long id) {
                throw new IllegalStateException("broken");
            }

            @Override
            public Optional<Plant> find(long id) {
                throw new IllegalStateException("broken");
            }
        };
        String log = LogCapture.during(() -> withServer(broken, (server, client) -> {
            Response response = client.request("/plants", request -> request
                    .post(java.net.http.HttpRequest.BodyPublishers.ofString("{\"id\":1,\"name\":\"Fern\"}"))
                    .header("Authorization", BEARER).header("Content-Type", "application/json")
                    .header("X-Request-Id", "trace-me-7"));
            assertEquals("internal server error; reference trace-me-7", assertError(response, 500));
            assertEquals("trace-me-7", idOf(response));
            String generated = idOf(create(client, "{\"id\":2,\"name\":\"Fern\"}"));
            LogCapture.keep(create(client, "{\"id\":3,\"name\":\"Fern\"}"));
            assertNotEquals(generated, idOf(LogCapture.kept()));
        }));
        assertTrue(log.contains("request trace-me-7 failed"), log);
        String generated = idOf(LogCapture.kept());
        assertEquals("internal server error; reference " + generated, assertError(LogCapture.kept(), 500));
        assertTrue(log.contains("request " + generated + " failed"), log);
    }
}
