package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.Poll;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http2.ErrorCode;
import org.junit.jupiter.api.Test;

/**
 * Over HTTP/2 the server may answer before a request's body has all arrived (a refused token is refused before the
 * body is read). RFC 9113 §8.1 has it then ask the client to stop sending "without error"; a client that treats any
 * other reset as a failure (the JDK's own client from JDK 25 on) would lose the answer. So the stream of such an
 * answer ends cleanly, as long as the body keeps within the limit.
 */
class Http2EarlyAnswerTest {

    private static final int PIECE = 1024;
    /**
     * The client's sending rate, a slow link's: the rest of a body arrives over about a second, long after the server
     * has answered. The pauses pace the upload; nothing waits on them for a result.
     */
    private static final long PIECE_PAUSE_MILLIS = 20;

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void aRefusalAnsweredBeforeTheBodyArrivedEndsItsStreamWithoutAReset() throws Exception {
        Http2Frames.Exchange exchange = refusedUpload(PlantStoreApi.DEFAULT_MAX_BODY_BYTES, true);

        assertEquals(401, exchange.awaitStatus());
        assertEquals(List.of(), exchange.resets, "RST_STREAM codes the client received");
    }

    @Test
    void aRefusedBodyDeclaredOverTheLimitIsNotReadButReset() throws Exception {
        Http2Frames.Exchange exchange = refusedUpload(PlantStoreApi.DEFAULT_MAX_BODY_BYTES + 1, true);

        assertEquals(401, exchange.awaitStatus());
        assertEquals(List.of(ErrorCode.CANCEL_STREAM_ERROR.code), exchange.resets,
                "RST_STREAM codes the client received");
    }

    @Test
    void aRefusedBodyOfNoDeclaredLengthIsReadNoFurtherThanTheLimit() throws Exception {
        Http2Frames.Exchange exchange = refusedUpload(PlantStoreApi.DEFAULT_MAX_BODY_BYTES + 4 * PIECE, false);

        assertEquals(401, exchange.awaitStatus());
        assertEquals(List.of(ErrorCode.CANCEL_STREAM_ERROR.code), exchange.resets,
                "RST_STREAM codes the client received");
    }

    /**
     * What the first test checks frame by frame, as the JDK's own client sees it: from JDK 25 on, a reset after the
     * answer fails the exchange ("RST_STREAM received"); JDK 17's client keeps the answer either way.
     */
    @Test
    void theJdksClientGetsTheRefusalOfAnUploadStillUnderway() throws Exception {
        Javalin server = TestApi.server(TestApi.api(store), TestTransport::listenOverTls).start();
        try {
            var upload = new SubmissionPublisher<ByteBuffer>();
            int length = PlantStoreApi.DEFAULT_MAX_BODY_BYTES;
            var request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/plants"))
                    .header("Authorization", "Bearer not-the-token")
                    .header("Content-Type", "application/json")
                    .POST(BodyPublishers.fromPublisher(upload, length))
                    .build();
            CompletableFuture<HttpResponse<String>> answer = TestTransport.http2Client()
                    .sendAsync(request, BodyHandlers.ofString());
            // A publisher drops what is submitted before the client subscribes, which it does once the stream opens.
            assertTrue(Poll.until(Http2Frames.WAIT, Duration.ofMillis(5), () -> upload.getNumberOfSubscribers() > 0),
                    "the client took the body");
            for (int sent = 0; sent < length; sent += PIECE) {
                upload.submit(ByteBuffer.allocate(Math.min(PIECE, length - sent)));
                Thread.sleep(PIECE_PAUSE_MILLIS);
            }
            upload.close(); // the end of the body
            HttpResponse<String> response = answer.get(Http2Frames.WAIT.toSeconds(), TimeUnit.SECONDS);

            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertEquals(401, response.statusCode());
        } finally {
            server.stop();
        }
    }

    /**
     * Sends a create with a wrong token and a body of {@code length} bytes, with a Content-Length if {@code declared}:
     * its first kilobyte, and once the answer has arrived the rest, a kilobyte at a time, as a slow link would; then
     * waits until the server is done with the stream. A body over the limit is never ended: the server must stop it,
     * which it can only do with a reset while the client is still sending. Ended, the whole of it could arrive within
     * the flow-control window before a busy server's answer completed, and the stream would then end without one.
     */
    private Http2Frames.Exchange refusedUpload(int length, boolean declared) throws Exception {
        try (Http2Frames client = Http2Frames.connect(store)) {
            var head = declared
                    ? client.request("POST", "/plants", "Authorization", "Bearer not-the-token",
                            "Content-Type", "application/json", "Content-Length", Integer.toString(length))
                    : client.request("POST", "/plants", "Authorization", "Bearer not-the-token",
                            "Content-Type", "application/json");
            Http2Frames.Exchange exchange = client.open(head, false);
            exchange.send(new byte[PIECE], false);
            exchange.awaitStatus();
            boolean overTheLimit = length > PlantStoreApi.DEFAULT_MAX_BODY_BYTES;
            for (int sent = PIECE; sent < length && !exchange.isReset(); sent += PIECE) {
                Thread.sleep(PIECE_PAUSE_MILLIS);
                int piece = Math.min(PIECE, length - sent);
                exchange.send(new byte[piece], !overTheLimit && sent + piece == length);
            }
            if (overTheLimit) {
                exchange.awaitReset();
            }
            client.awaitEveryStreamDone();
            return exchange;
        }
    }
}
