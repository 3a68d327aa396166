package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.json;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A store that cannot be reached is a 503 with the Error body and an unhealthy /health; it is not a 500. */
class StoreUnavailableTest {

    @Test
    void writesAre503WithRetryAfterWhileTheStoreIsDownAndSucceedOnceItIsBack() {
        var store = new SwitchableStore();
        String log = LogCapture.awaiting(List.of(
                Pattern.compile("POST /plants 503 [0-9.]+ms - connection refused by db\\.internal:5432"),
                Pattern.compile("DELETE /plants/1 503 [0-9.]+ms - connection refused by db\\.internal:5432")),
                () -> withServer(store, (server, client) -> {
                    store.setDown(true);
                    var refused = create(client, "{\"id\":1,\"name\":\"Fern\"}");
                    assertEquals("the plant store is unavailable; try again later", assertError(refused, 503));
                    assertEquals(List.of("1"), refused.headers().get("Retry-After"));
                    assertError(delete(client, "1"), 503);

                    store.setDown(false);
                    assertEquals(200, create(client, "{\"id\":1,\"name\":\"Fern\"}").code());
                    assertEquals(204, delete(client, "1").code());
                }));
        assertTrue(log.contains("POST /plants 503 "), log);
        assertEquals(2, log.lines().filter(line -> line.contains("db.internal")).count(),
                "the reason is on the access lines, one per request, and nowhere else:\n" + log);
        assertFalse(log.contains("\tat "), log);
    }

    @Test
    void healthIs503DownWhileTheStoreIsDownAndUpAgainAfter() {
        var store = new SwitchableStore();
        withServer(store, (server, client) -> {
            store.setDown(true);
            var down = client.get("/health");
            assertEquals(503, down.code());
            assertEquals("DOWN", json(down).get("status").textValue());

            store.setDown(false);
            var up = client.get("/health");
            assertEquals(200, up.code());
            assertEquals("UP", json(up).get("status").textValue());
        });
    }

    @Test
    void headHealthIs503WithTheGetHeadersWhileTheStoreIsDown() {
        var store = new SwitchableStore();
        withServer(store, (server, client) -> {
            store.setDown(true);
            var get = TestApi.send(client, "GET", "/health");
            var head = TestApi.send(client, "HEAD", "/health");
            assertEquals(503, head.code());
            assertEquals(get.headers().get("Content-Type"), head.headers().get("Content-Type"));
            assertEquals(List.of(Integer.toString(get.body().string().length())), head.headers().get("Content-Length"));
            assertEquals("", head.body().string());
        });
    }
}
