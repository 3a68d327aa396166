package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.Javalin;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PingFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * Over HTTP/2 the server may answer before a request's body has all arrived (a refused token is refused before the
 * body is read). RFC 9113 §8.1 lets it then ask the client to stop sending only "without error"; a client that
 * treats any other reset as a failure (the JDK's own client from JDK 25 on) would lose the answer. So the stream of
 * such an answer ends cleanly, as long as the body keeps within the limit.
 */
class Http2EarlyAnswerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int PIECE = 1024;
    /** The rest of a body arrives over about a second, long after the server has answered. */
    private static final long PIECE_PAUSE_MILLIS = 20;

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void aRefusalAnsweredBeforeTheBodyArrivedEndsItsStreamWithoutAReset() throws Exception {
        Exchange exchange = refusedUpload(PlantStoreApi.DEFAULT_MAX_BODY_BYTES, true);

        assertEquals(401, exchange.status);
        assertEquals(List.of(), exchange.resets, "RST_STREAM codes the client received");
    }

    @Test
    void aRefusedBodyDeclaredOverTheLimitIsNotReadButReset() throws Exception {
        Exchange exchange = refusedUpload(PlantStoreApi.DEFAULT_MAX_BODY_BYTES + 1, true);

        assertEquals(401, exchange.status);
        assertEquals(List.of(ErrorCode.CANCEL_STREAM_ERROR.code), exchange.resets,
                "RST_STREAM codes the client received");
    }

    @Test
    void aRefusedBodyOfNoDeclaredLengthIsReadNoFurtherThanTheLimit() throws Exception {
        Exchange exchange = refusedUpload(PlantStoreApi.DEFAULT_MAX_BODY_BYTES + 4 * PIECE, false);

        assertEquals(401, exchange.status);
        assertEquals(List.of(ErrorCode.CANCEL_STREAM_ERROR.code), exchange.resets,
                "RST_STREAM codes the client received");
    }

    /**
     * Sends a create with a wrong token and a body of {@code length} bytes, with a Content-Length if {@code declared}:
     * its first kilobyte, and once the answer has arrived the rest, a kilobyte at a time, as a slow link would; once
     * the server is done with the stream, a PING, whose answer comes after any reset the server sent for it.
     */
    private Exchange refusedUpload(int length, boolean declared) throws Exception {
        var exchange = new Exchange();
        var jetty = new AtomicReference<Server>();
        Javalin server = PlantStoreServer.create(TestApi.api(store), Duration.ZERO, store::isAvailable,
                ClientLimits.defaults(), config -> {
                    TestTransport.listenOverTls(config);
                    config.jetty.modifyServer(jetty::set);
                }).start();
        var client = new HTTP2Client();
        client.getClientConnector().setSslContextFactory(TestTransport.jettyClientTrust());
        client.start();
        try {
            exchange.run(client, server.port(), length, declared, jetty.get());
        } finally {
            client.stop();
            server.stop();
        }
        return exchange;
    }

    private static final class Exchange implements Stream.Listener {

        final List<Integer> resets = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> answered = new CompletableFuture<>();
        volatile int status;

        void run(HTTP2Client client, int port, int length, boolean declared, Server server) throws Exception {
            var pingAnswered = new CompletableFuture<Void>();
            var address = new InetSocketAddress("localhost", port);
            Session session = client.connect(client.getClientConnector().getSslContextFactory(), address,
                    new Session.Listener() {
                        @Override
                        public void onPing(Session session, PingFrame frame) {
                            if (frame.isReply()) {
                                pingAnswered.complete(null);
                            }
                        }
                    }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            HttpFields.Mutable headers = HttpFields.build()
                    .put(HttpHeader.AUTHORIZATION, "Bearer not-the-token")
                    .put(HttpHeader.CONTENT_TYPE, "application/json");
            if (declared) {
                headers.put(HttpHeader.CONTENT_LENGTH, Integer.toString(length));
            }
            var request = new MetaData.Request("POST", HttpURI.from("https://localhost:" + port + "/plants"),
                    HttpVersion.HTTP_2, headers);
            Stream stream = session.newStream(new HeadersFrame(request, null, false), this)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            send(stream, PIECE, false);
            answered.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            for (int sent = PIECE; sent < length && !stream.isReset(); sent += PIECE) {
                Thread.sleep(PIECE_PAUSE_MILLIS);
                int piece = Math.min(PIECE, length - sent);
                send(stream, piece, sent + piece == length);
            }
            awaitEveryStreamClosed(server);
            session.ping(new PingFrame(System.nanoTime(), false), Callback.NOOP);
            pingAnswered.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        /** Sends {@code bytes} zeros; a stream the server has reset takes no more, which its reset tells. */
        private static void send(Stream stream, int bytes, boolean last) throws Exception {
            stream.data(new DataFrame(stream.getId(), ByteBuffer.allocate(bytes), last))
                    .handle((sent, failure) -> null)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        private static void awaitEveryStreamClosed(Server server) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (openStreams(server) > 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the server still has a stream open after " + WAIT);
                }
                Thread.sleep(10);
            }
        }

        private static long openStreams(Server server) {
            long open = 0;
            for (Connector connector : server.getConnectors()) {
                for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                    if (endPoint.getConnection() instanceof SslConnection tls
                            && tls.getSslEndPoint().getConnection() instanceof HTTP2Connection http2) {
                        open += http2.getSession().getStreamCount();
                    }
                }
            }
            return open;
        }

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            status = ((MetaData.Response) frame.getMetaData()).getStatus();
            if (frame.isEndStream()) {
                answered.complete(null);
            } else {
                stream.demand();
            }
        }

        @Override
        public void onDataAvailable(Stream stream) {
            Stream.Data data = stream.readData();
            if (data == null) {
                stream.demand();
                return;
            }
            data.release();
            if (data.frame().isEndStream()) {
                answered.complete(null);
            } else {
                stream.demand();
            }
        }

        @Override
        public void onReset(Stream stream, ResetFrame frame, Callback callback) {
            resets.add(frame.getError());
            callback.succeeded();
        }
    }
}
