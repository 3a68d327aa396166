package dev.plantstore.http;

import dev.plantstore.core.PlantStore;
import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PingFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;

/**
 * An HTTP/2 client at the level of frames (Jetty's {@link HTTP2Client}) against the standalone server over TLS: it
 * opens, feeds and resets streams as a careless or hostile client would, and records what came back, resets and
 * GOAWAY included, which HTTP clients hide.
 */
final class Http2Frames implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(10);
    /** The largest header block sent by a client told to go past the server's limits: the encoder's buffer. */
    private static final int HEADER_BLOCK_BEYOND_LIMITS = 64 * 1024;

    private final Javalin server;
    private final Server jetty;
    private final HTTP2Client client;
    private final Session session;
    private final CompletableFuture<GoAwayFrame> goAway = new CompletableFuture<>();
    private final AtomicReference<CompletableFuture<Void>> pingAnswer = new AtomicReference<>();

    private Http2Frames(Javalin server, Server jetty, boolean obeyLimits, Map<Integer, Integer> clientSettings)
            throws Exception {
        this.server = server;
        this.jetty = jetty;
        client = new HTTP2Client();
        client.getClientConnector().setSslContextFactory(TestTransport.jettyClientTrust());
        client.start();
        var settings = new CompletableFuture<Void>();
        session = client.connect(client.getClientConnector().getSslContextFactory(),
                new InetSocketAddress("localhost", server.port()), new Session.Listener() {
                    @Override
                    public Map<Integer, Integer> onPreface(Session session) {
                        return clientSettings;
                    }

                    @Override
                    public void onSettings(Session session, SettingsFrame frame) {
                        if (!obeyLimits) {
                            // Jetty's client, having just applied the server's limits, would refuse to exceed them.
                            ((HTTP2Session) session).setMaxLocalStreams(-1);
                            ((HTTP2Session) session).getGenerator().getHpackEncoder()
                                    .setMaxHeaderListSize(HEADER_BLOCK_BEYOND_LIMITS);
                        }
                        settings.complete(null);
                    }

                    @Override
                    public void onPing(Session session, PingFrame frame) {
                        CompletableFuture<Void> waiting = pingAnswer.get();
                        if (frame.isReply() && waiting != null) {
                            waiting.complete(null);
                        }
                    }

                    @Override
                    public void onGoAway(Session session, GoAwayFrame frame) {
                        goAway.complete(frame);
                    }
                }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        settings.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Starts the standalone server over {@code store} with TLS and HTTP/2, and connects to it. */
    static Http2Frames connect(PlantStore store) throws Exception {
        return connect(store, true);
    }

    /**
     * As {@link #connect(PlantStore)}; unless {@code obeyLimits}, the client goes past the limits the server announces
     * (streams open at once, the size of a header block).
     */
    static Http2Frames connect(PlantStore store, boolean obeyLimits) throws Exception {
        return connect(store, obeyLimits, Map.of());
    }

    /**
     * As {@link #connect(PlantStore)}, the client announcing {@code initialStreamWindow} as every stream's
     * flow-control window, which it never opens further: at 0, no answer's body can be sent.
     */
    static Http2Frames connectWithWindow(PlantStore store, int initialStreamWindow) throws Exception {
        return connect(store, true, Map.of(SettingsFrame.INITIAL_WINDOW_SIZE, initialStreamWindow));
    }

    private static Http2Frames connect(PlantStore store, boolean obeyLimits, Map<Integer, Integer> clientSettings)
            throws Exception {
        var jetty = new AtomicReference<Server>();
        Javalin server = TestApi.server(TestApi.api(store), config -> {
            TestTransport.listenOverTls(config);
            config.jetty.modifyServer(jetty::set);
        }).start();
        try {
            return new Http2Frames(server, jetty.get(), obeyLimits, clientSettings);
        } catch (Exception e) {
            server.stop();
            throw e;
        }
    }

    /** A request's head: {@code method} on {@code path} with the header fields given, names and values in turn. */
    MetaData.Request request(String method, String path, String... fields) {
        HttpFields.Mutable headers = HttpFields.build();
        for (int i = 0; i < fields.length; i += 2) {
            headers.add(fields[i], fields[i + 1]);
        }
        return new MetaData.Request(method, HttpURI.build("https://localhost:" + server.port() + path),
                HttpVersion.HTTP_2, headers);
    }

    /**
     * As {@link #request}, with {@code scheme} as its {@code :scheme}, every field sent as given: Jetty's client leaves
     * out of a header block the fields HTTP/2 forbids ({@code transfer-encoding}, {@code connection}...) unless it
     * does not know them by name.
     */
    MetaData.Request unchecked(String scheme, String method, String path, String... fields) {
        HttpFields.Mutable headers = HttpFields.build();
        for (int i = 0; i < fields.length; i += 2) {
            headers.add(new HttpField(null, fields[i], fields[i + 1]));
        }
        return new MetaData.Request(method, HttpURI.build(scheme + "://localhost:" + server.port() + path),
                HttpVersion.HTTP_2, headers);
    }

    /** Opens a stream with {@code head}, ending it there if {@code last}. */
    Exchange open(MetaData.Request head, boolean last) throws Exception {
        var exchange = new Exchange();
        exchange.stream = session.newStream(new HeadersFrame(head, null, last), exchange)
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return exchange;
    }

    /** Whether the server has sent GOAWAY on this connection; the frame if it has. */
    CompletableFuture<GoAwayFrame> goAway() {
        return goAway;
    }

    /**
     * Waits until the server is done with every stream, then sends a PING and waits for its answer, which comes after
     * every frame the server sent for those streams.
     */
    void awaitEveryStreamDone() throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (openStreams() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server still has a stream open after " + WAIT);
            }
            Thread.sleep(10);
        }
        var answer = new CompletableFuture<Void>();
        pingAnswer.set(answer);
        session.ping(new PingFrame(System.nanoTime(), false), Callback.NOOP);
        answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The requests the server counts as in flight, which its stop waits for (Jetty's {@code GracefulHandler}). */
    long requestsInFlight() {
        return jetty.getDescendant(GracefulHandler.class).getCurrentRequestCount();
    }

    private long openStreams() {
        long open = 0;
        for (Connector connector : jetty.getConnectors()) {
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
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP/2 client did not stop", e);
        } finally {
            server.stop();
        }
    }

    /** One stream: what the client sends on it, and what came back. */
    static final class Exchange implements Stream.Listener {

        final List<Integer> resets = new CopyOnWriteArrayList<>();
        private final CompletableFuture<Integer> answered = new CompletableFuture<>();
        private final CompletableFuture<Integer> firstReset = new CompletableFuture<>();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private Stream stream;
        private volatile int status;

        /** Sends {@code bytes}; a stream the server has reset takes no more, which its reset tells. */
        void send(byte[] bytes, boolean last) throws Exception {
            stream.data(new DataFrame(stream.getId(), ByteBuffer.wrap(bytes), last))
                    .handle((sent, failure) -> null)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        void reset(int error) {
            stream.reset(new ResetFrame(stream.getId(), error), Callback.NOOP);
        }

        boolean isReset() {
            return stream.isReset();
        }

        /** The answer's status, once the answer has ended. */
        int awaitStatus() throws Exception {
            return answered.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        /** The error code of the first RST_STREAM the server sent on this stream, once one has arrived. */
        int awaitReset() throws Exception {
            return awaitReset(WAIT);
        }

        /** As {@link #awaitReset()}, waiting up to {@code limit}. */
        int awaitReset(Duration limit) throws Exception {
            return firstReset.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** The answer's body, once the answer has ended. */
        String awaitBody() throws Exception {
            awaitStatus();
            synchronized (body) {
                return body.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            if (frame.getMetaData() instanceof MetaData.Response response) {
                status = response.getStatus();
            }
            if (frame.isEndStream()) {
                answered.complete(status);
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
            ByteBuffer bytes = data.frame().getByteBuffer();
            synchronized (body) {
                while (bytes.hasRemaining()) {
                    body.write(bytes.get());
                }
            }
            data.release();
            if (data.frame().isEndStream()) {
                answered.complete(status);
            } else {
                stream.demand();
            }
        }

        @Override
        public void onReset(Stream stream, ResetFrame frame, Callback callback) {
            resets.add(frame.getError());
            firstReset.complete(frame.getError());
            callback.succeeded();
        }
    }
}
