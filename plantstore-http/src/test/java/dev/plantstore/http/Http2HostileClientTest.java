package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.junit.jupiter.api.Test;

/**
 * The hostile-client rules on HTTP/2 streams, frame by frame: what the HTTP/1.1 suites check on a raw socket
 * (StrictHttpTest, ProtocolErrorTest) where HTTP/2 has it too, and what only HTTP/2 allows (resetting streams as fast
 * as they open). A header block over the limit has no test here: the server announces its limit in its SETTINGS, and
 * Jetty's client, like any conforming one, refuses to send more.
 */
class Http2HostileClientTest {

    private static final String PLANT = "{\"id\":1,\"name\":\"Monstera\"}";

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void aClientResettingStreamsAsFastAsItOpensThemIsCutOffAndOthersAreStillServed() throws Exception {
        try (Http2Frames flood = Http2Frames.connect(store)) {
            try {
                for (int opened = 0; opened < 10_000 && !flood.goAway().isDone(); opened++) {
                    flood.open(flood.request("DELETE", "/plants/1", "Authorization", TestApi.BEARER), true)
                            .reset(ErrorCode.CANCEL_STREAM_ERROR.code);
                }
            } catch (ExecutionException sessionClosed) {
                // The server closed the connection between two streams: its GOAWAY says why.
            }
            GoAwayFrame goAway = flood.goAway().get(Http2Frames.WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM_ERROR.code, goAway.getError(), goAway.toString());

            try (Http2Frames other = Http2Frames.connect(store)) {
                assertEquals(200, create(other, PLANT.length(), PLANT).awaitStatus());
            }
        }
    }

    @Test
    void aBodyLongerThanItsContentLengthNeverReachesTheStore() throws Exception {
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = create(client, PLANT.length() - 1, PLANT);
            client.awaitEveryStreamDone();

            assertEquals(List.of(ErrorCode.PROTOCOL_ERROR.code), exchange.resets,
                    "RST_STREAM codes the client received");
        }
        assertFalse(store.find(1).isPresent(), "stored from a body its Content-Length contradicts");
    }

    @Test
    void aBodyShorterThanItsContentLengthNeverReachesTheStore() throws Exception {
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = create(client, PLANT.length() + 1, PLANT);
            client.awaitEveryStreamDone();

            assertEquals(List.of(ErrorCode.PROTOCOL_ERROR.code), exchange.resets,
                    "RST_STREAM codes the client received");
        }
        assertFalse(store.find(1).isPresent(), "stored from a body its Content-Length contradicts");
    }

    @Test
    void aPathWithBadPercentEncodingIs400InTheErrorShape() throws Exception {
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = client.open(
                    client.request("DELETE", "/plants/%FF", "Authorization", TestApi.BEARER), true);

            assertEquals(400, exchange.awaitStatus());
            assertTrue(exchange.awaitBody().startsWith("{\"error\":400,"), exchange.awaitBody());
        }
    }

    private static Http2Frames.Exchange create(Http2Frames client, int declaredLength, String body) throws Exception {
        Http2Frames.Exchange exchange = client.open(client.request("POST", "/plants",
                "Authorization", TestApi.BEARER, "Content-Type", "application/json",
                "Content-Length", Integer.toString(declaredLength)), false);
        exchange.send(body.getBytes(StandardCharsets.UTF_8), true);
        return exchange;
    }
}
