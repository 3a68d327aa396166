package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.List;
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
    /** The rest of a body arrives over about a second, long after the server has answered. */
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
     * Sends a create with a wrong token and a body of {@code length} bytes, with a Content-Length if {@code declared}:
     * its first kilobyte, and once the answer has arrived the rest, a kilobyte at a time, as a slow link would; then
     * waits until the server is done with the stream.
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
            for (int sent = PIECE; sent < length && !exchange.isReset(); sent += PIECE) {
                Thread.sleep(PIECE_PAUSE_MILLIS);
                int piece = Math.min(PIECE, length - sent);
                exchange.send(new byte[piece], sent + piece == length);
            }
            client.awaitEveryStreamDone();
            return exchange;
        }
    }
}
