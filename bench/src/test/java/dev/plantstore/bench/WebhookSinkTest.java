package dev.plantstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sink as the script drives it: events over HTTP, steered and read over HTTP while it runs. */
class WebhookSinkTest {

    private final HttpClient client = HttpClient.newHttpClient();
    private WebhookSink sink;

    @BeforeEach
    void start() throws Exception {
        sink = WebhookSink.start(0);
    }

    @AfterEach
    void stop() {
        sink.stop();
    }

    private HttpResponse<String> send(String method, String path, String id, String body) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sink.port() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (id != null) {
            request.header("webhook-id", id);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String created(Instant written) {
        return "{\"type\":\"plant.created\",\"timestamp\":\"" + written + "\",\"data\":{\"id\":1,\"name\":\"A\"}}";
    }

    @Test
    void anEventIsAnswered204AndItsLagIsTheTimeSinceItsCommit() throws Exception {
        Instant sent = Instant.now();
        var response = send("POST", "/events", "msg_1", created(sent.minusSeconds(3)));
        long sendingMillis = Duration.between(sent, Instant.now()).toMillis();
        assertEquals(204, response.statusCode());
        String stats = send("GET", "/stats", null, null).body();
        assertTrue(stats.startsWith("{\"accepted\":1,\"unique\":1,\"rejected\":0,"), stats);
        Matcher lag = Pattern.compile("\"lagMaxMillis\":(\\d+)").matcher(stats);
        assertTrue(lag.find(), stats);
        long lagMillis = Long.parseLong(lag.group(1));
        assertTrue(lagMillis >= 3000 && lagMillis <= 3000 + sendingMillis + 1, stats);
    }

    @Test
    void inA503ModeEventsAreRefusedAndNotCountedUntilSwitchedBack() throws Exception {
        assertEquals(204, send("POST", "/mode?status=503", null, null).statusCode());
        assertEquals(503, send("POST", "/events", "msg_1", created(Instant.now())).statusCode());
        assertEquals(204, send("POST", "/mode?status=204", null, null).statusCode());
        assertEquals(204, send("POST", "/events", "msg_1", created(Instant.now())).statusCode());
        String stats = send("GET", "/stats", null, null).body();
        assertTrue(stats.startsWith("{\"accepted\":1,\"unique\":1,\"rejected\":1,"), stats);
    }

    @Test
    void aResetStartsTheCountsAgain() throws Exception {
        send("POST", "/events", "msg_1", created(Instant.now()));
        assertEquals(204, send("POST", "/reset", null, null).statusCode());
        assertTrue(send("GET", "/stats", null, null).body().startsWith("{\"accepted\":0,\"unique\":0,"));
    }

    @Test
    void aBadControlRequestIsA400OrA405WithTheErrorAsJson() throws Exception {
        var badStatus = send("POST", "/mode?status=abc", null, null);
        assertEquals(400, badStatus.statusCode());
        assertTrue(badStatus.body().startsWith("{\"error\":"), badStatus.body());
        assertEquals(405, send("POST", "/stats", null, null).statusCode());
    }

    @Test
    void anEventWithoutATimestampIsRefused() throws Exception {
        assertEquals(400, send("POST", "/events", "msg_1", "{\"type\":\"plant.created\"}").statusCode());
        assertEquals(400, send("POST", "/events", null, created(Instant.now())).statusCode());
    }
}
