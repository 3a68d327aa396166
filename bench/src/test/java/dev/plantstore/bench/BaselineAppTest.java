package dev.plantstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.bench.baseline.BaselineApp;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The baseline must do the work it stands for, or the ratios measure nothing. */
class BaselineAppTest {

    private final HttpClient client = HttpClient.newHttpClient();
    private Javalin app;

    @BeforeEach
    void start() {
        app = BaselineApp.start(0, "secret");
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void constantGetAnswersTheSameJsonWithoutAToken() throws Exception {
        var response = send("GET", "/constant", null, null);
        assertEquals(200, response.statusCode());
        assertEquals("{\"status\":\"UP\"}", response.body());
    }

    @Test
    void naiveCreateStoresOnceAndAnswersThePlant() throws Exception {
        var created = send("POST", "/plants", "{\"id\":7,\"name\":\"Plant-0001\",\"tag\":\"fern\"}", "secret");
        assertEquals(200, created.statusCode());
        assertEquals("{\"name\":\"Plant-0001\",\"tag\":\"fern\"}", created.body());
        assertEquals(409, send("POST", "/plants", "{\"id\":7,\"name\":\"Other\"}", "secret").statusCode());
    }

    @Test
    void naiveDeleteRemovesOnce() throws Exception {
        send("POST", "/plants", "{\"id\":8,\"name\":\"Plant-0002\"}", "secret");
        assertEquals(204, send("DELETE", "/plants/8", null, "secret").statusCode());
        assertEquals(404, send("DELETE", "/plants/8", null, "secret").statusCode());
    }

    @Test
    void plantsNeedTheToken() throws Exception {
        assertEquals(401, send("POST", "/plants", "{\"id\":9,\"name\":\"x\"}", "wrong").statusCode());
        assertEquals(401, send("DELETE", "/plants/9", null, null).statusCode());
    }
}
