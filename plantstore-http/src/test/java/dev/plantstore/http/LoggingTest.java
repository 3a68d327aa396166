package dev.plantstore.http;

import static dev.plantstore.http.TestApi.TOKEN;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LoggingTest {

    private static final Pattern ACCESS_LINE =
            Pattern.compile("(?m)dev\\.plantstore\\.access - 127\\.0\\.0\\.1 (\\S+) (\\S+) (\\d{3}) \\d+\\.\\dms$");

    @Test
    void oneAccessLinePerRequestWithMethodPathStatusAndDuration() {
        String log = LogCapture.during(() -> withServer(PlantStores.inMemory(), (server, client) -> {
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            delete(client, "1");
            client.get("/health");
        }));
        // A line is written once its exchange completes, after the client has the answer: over HTTP/2 the next
        // request's stream may complete first, so the lines are compared in no order.
        var lines = ACCESS_LINE.matcher(log).results()
                .map(m -> m.group(1) + " " + m.group(2) + " " + m.group(3))
                .sorted()
                .toList();
        assertEquals(java.util.List.of("DELETE /plants/1 204", "GET /health 200", "POST /plants 200"), lines);
    }

    @Test
    void theTokenIsNeverLoggedWhetherAcceptedRefusedOrFailing() {
        String log = LogCapture.during(() -> withServer(PlantStores.inMemory(), (server, client) -> {
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            client.request("/plants/1", request -> request.delete(java.net.http.HttpRequest.BodyPublishers.noBody())
                    .header("Authorization", "Bearer " + TOKEN + "-wrong"));
            create(client, "{broken");
        }));
        assertTrue(log.contains("POST /plants 200"), log);
        assertFalse(log.contains(TOKEN), log);
        assertFalse(log.contains("Authorization"), log);
    }
}
