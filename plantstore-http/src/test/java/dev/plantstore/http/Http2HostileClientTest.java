package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.Poll;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hostile-client rules on HTTP/2 streams, frame by frame: what the HTTP/1.1 suites check on a raw socket
 * (StrictHttpTest, ProtocolErrorTest) where HTTP/2 has it too, and what only HTTP/2 allows (resetting streams as fast
 * as they open). Where the server announces a limit in its SETTINGS, the client here is told to go past it, as a
 * hostile one would.
 */
class Http2HostileClientTest {

    private static final String PLANT = "{\"id\":1,\"name\":\"Monstera\"}";

    private static final int MAX_OPEN_STREAMS = Http2Connections.MAX_CONCURRENT_STREAMS;

    private final PlantStore store = PlantStores.inMemory();

    /**
     * The server answers a flood of resets (Jetty's rate control: over 128 in a second) with GOAWAY and closes the
     * connection. A client still writing may find the connection reset before it reads the GOAWAY, as TCP discards
     * what a peer that closed has not read; either way the flood ends long before its end.
     */
    @Test
    void aClientResettingStreamsAsFastAsItOpensThemIsCutOffAndOthersAreStillServed() throws Exception {
        int flood = 10_000;
        int opened = 0;
        try (Http2Frames flooding = Http2Frames.connect(store)) {
            try {
                while (opened < flood && !flooding.goAway().isDone()) {
                    flooding.open(flooding.request("DELETE", "/plants/1", "Authorization", TestApi.BEARER), true)
                            .reset(ErrorCode.CANCEL_STREAM_ERROR.code);
                    opened++;
                }
            } catch (ExecutionException connectionClosed) {
                // The stream could not be opened: the connection is closed or reset.
            }
            assertTrue(opened < flood, "the server took " + opened + " streams, each reset at once");
            if (flooding.goAway().isDone()) {
                GoAwayFrame goAway = flooding.goAway().get();
                assertEquals(ErrorCode.ENHANCE_YOUR_CALM_ERROR.code, goAway.getError(), goAway.toString());
            }
        }
        try (Http2Frames other = Http2Frames.connect(store)) {
            assertEquals(200, create(other, PLANT.length(), PLANT).awaitStatus());
        }
    }

    @Test
    void aStreamBeyondTheServersLimitOfOpenStreamsIsRefusedAndTheOthersGoOn() throws Exception {
        try (Http2Frames client = Http2Frames.connect(store, false)) {
            var open = new ArrayList<Http2Frames.Exchange>();
            for (int i = 0; i < MAX_OPEN_STREAMS; i++) {
                open.add(createHead(client, PLANT.length()));
            }
            Http2Frames.Exchange beyond = createHead(client, PLANT.length());

            assertEquals(ErrorCode.REFUSED_STREAM_ERROR.code, beyond.awaitReset());
            open.get(0).send(PLANT.getBytes(StandardCharsets.UTF_8), true);
            assertEquals(200, open.get(0).awaitStatus());
        }
    }

    /**
     * A client that never opens its flow-control window gets the answer's head and no body; the stream holds what
     * it holds for {@link Http2Connections#STREAM_IDLE_TIMEOUT}, not for the connection's 30 s idle time-out, and is
     * then reset, its request ended.
     */
    @Test
    void aStreamStalledOnAClosedWindowIsResetAfterTheStreamIdleTimeout() throws Exception {
        try (Http2Frames client = Http2Frames.connectWithWindow(store, 0)) {
            long start = System.nanoTime();
            Http2Frames.Exchange stalled = client.open(client.request("GET", "/health"), true);
            stalled.awaitReset(Duration.ofSeconds(25));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Http2Connections.STREAM_IDLE_TIMEOUT.minusSeconds(1)) > 0, "reset after " + took);
            assertTrue(took.compareTo(ClientLimits.DEFAULT_IDLE_TIMEOUT.minusSeconds(5)) < 0, "reset after " + took);
            assertTrue(Poll.until(Http2Frames.WAIT, Duration.ofMillis(10), () -> client.requestsInFlight() == 0),
                    "the stalled request ended");
        }
    }

    /**
     * Jetty's 8 KiB for the request line and headers holds on HTTP/2 too: a header block over it is a fault of the
     * whole connection (HPACK's state is the connection's), which the server ends with GOAWAY, with the code the pages
     * give for each size; one a little under it is served.
     */
    @ParameterizedTest(name = "a header block of {0} KiB")
    @CsvSource({"9, PROTOCOL_ERROR", "16, REFUSED_STREAM_ERROR"})
    void aHeaderBlockOverTheLimitEndsItsConnectionWithGoAwayAndNeverReachesTheStore(int kib, ErrorCode code)
            throws Exception {
        try (Http2Frames client = Http2Frames.connect(store, false)) {
            padded(client, kib * 1024);

            GoAwayFrame goAway = client.goAway().get(Http2Frames.WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(code.code, goAway.getError(), goAway.toString());
        }
        assertFalse(store.find(1).isPresent(), "stored from a request whose header block is over the limit");
        try (Http2Frames other = Http2Frames.connect(store, false)) {
            assertEquals(200, padded(other, 7 * 1024).awaitStatus());
        }
    }

    /** A create whose head carries {@code padding} bytes of one more header field. */
    private static Http2Frames.Exchange padded(Http2Frames client, int padding) throws Exception {
        Http2Frames.Exchange exchange = client.open(client.request("POST", "/plants", "Authorization", TestApi.BEARER,
                "Content-Type", "application/json", "X-Padding", "p".repeat(padding)), false);
        exchange.send(PLANT.getBytes(StandardCharsets.UTF_8), true);
        return exchange;
    }

    /** A Content-Length one byte short of the body, or one byte over it. */
    @ParameterizedTest(name = "declared {0} against the body''s length")
    @ValueSource(ints = {-1, 1})
    void aBodyThatContradictsItsContentLengthResetsItsStreamAndNeverReachesTheStore(int declaredOverActual)
            throws Exception {
        try (Http2Frames client = Http2Frames.connect(store)) {
            // A connection that has served a request already, whose request state Jetty reuses.
            String other = PLANT.replace("1", "2");
            assertEquals(200, create(client, other.length(), other).awaitStatus());
            Http2Frames.Exchange exchange = create(client, PLANT.length() + declaredOverActual, PLANT);
            client.awaitEveryStreamDone();

            assertEquals(List.of(ErrorCode.PROTOCOL_ERROR.code), exchange.resets,
                    "RST_STREAM codes the client received");
            assertTrue(Poll.until(Http2Frames.WAIT, Duration.ofMillis(10), () -> client.requestsInFlight() == 0),
                    "the reset request is no longer in flight, which a stop would wait for");
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

    /**
     * RFC 9113 section 8.2.2: a request with a connection-specific field is malformed. The ones Jetty's decoder lets
     * through are 400 in the Error shape, naming the field, before anything reads the body or the store.
     */
    @ParameterizedTest
    @CsvSource({"transfer-encoding, chunked", "transfer-encoding, gzip", "keep-alive, timeout=5",
        "proxy-connection, keep-alive", "upgrade, h2c", "connection, te"})
    void aConnectionSpecificFieldIs400AndTheRequestIsNotServed(String name, String value) throws Exception {
        store.create(new NewPlant(1, "Monstera"));
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = client.open(client.unchecked("https", "DELETE", "/plants/1",
                    "Authorization", TestApi.BEARER, name, value), true);

            assertEquals(400, exchange.awaitStatus());
            assertTrue(exchange.awaitBody().startsWith("{\"error\":400,") && exchange.awaitBody().contains(name),
                    exchange.awaitBody());
        }
        assertTrue(store.find(1).isPresent(), "deleted by a malformed request");
    }

    /** The connection-specific fields Jetty's decoder refuses itself, as a request it refuses before routing. */
    @ParameterizedTest
    @CsvSource({"te, gzip", "te, 'trailers, deflate'", "connection, close", "connection, keep-alive"})
    void aTeOtherThanTrailersOrAConnectionFieldOtherThanTeIs400(String name, String value) throws Exception {
        store.create(new NewPlant(1, "Monstera"));
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = client.open(client.unchecked("https", "DELETE", "/plants/1",
                    "Authorization", TestApi.BEARER, name, value), true);

            assertEquals(400, exchange.awaitStatus());
            assertEquals("{\"error\":400,\"message\":\"Bad Request\"}", exchange.awaitBody());
        }
        assertTrue(store.find(1).isPresent(), "deleted by a malformed request");
    }

    /** {@code te: trailers} is the one connection-specific field HTTP/2 allows. */
    @Test
    void teTrailersIsServed() throws Exception {
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = client.open(client.unchecked("https", "GET", "/health/live",
                    "te", "trailers"), true);

            assertEquals(200, exchange.awaitStatus());
        }
    }

    /** A request saying {@code :scheme http} on a TLS connection contradicts its connection: 400, not served. */
    @Test
    void schemeHttpOnATlsConnectionIs400() throws Exception {
        store.create(new NewPlant(1, "Monstera"));
        try (Http2Frames client = Http2Frames.connect(store)) {
            Http2Frames.Exchange exchange = client.open(client.unchecked("http", "DELETE", "/plants/1",
                    "Authorization", TestApi.BEARER), true);

            assertEquals(400, exchange.awaitStatus());
            assertTrue(exchange.awaitBody().startsWith("{\"error\":400,") && exchange.awaitBody().contains(":scheme"),
                    exchange.awaitBody());
        }
        assertTrue(store.find(1).isPresent(), "deleted by a request with the wrong scheme");
    }

    private static Http2Frames.Exchange create(Http2Frames client, int declaredLength, String body) throws Exception {
        Http2Frames.Exchange exchange = createHead(client, declaredLength);
        exchange.send(body.getBytes(StandardCharsets.UTF_8), true);
        return exchange;
    }

    /** A create's head, its body still to come. */
    private static Http2Frames.Exchange createHead(Http2Frames client, int declaredLength) throws Exception {
        return client.open(client.request("POST", "/plants", "Authorization", TestApi.BEARER,
                "Content-Type", "application/json", "Content-Length", Integer.toString(declaredLength)), false);
    }
}
