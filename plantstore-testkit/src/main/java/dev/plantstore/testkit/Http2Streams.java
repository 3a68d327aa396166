package dev.plantstore.testkit;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * One HTTP/2 connection over TLS, stream by stream (Jetty's {@link HTTP2Client}), for tests that act as a hostile
 * client does: one that never opens its flow-control window, one whose body contradicts its {@code Content-Length},
 * one whose request is malformed.
 * It records how each stream ends (its status, or the code of its {@code RST_STREAM}),
 * which HTTP clients hide.
 */
public final class Http2Streams implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final HTTP2Client client;
    private final Session session;
    private final String origin;
    private final int maxStreams;

    private Http2Streams(HTTP2Client client, Session session, String origin, int maxStreams) {
        this.client = client;
        this.session = session;
        this.origin = origin;
        this.maxStreams = maxStreams;
    }

    /**
     * Connects to {@code 127.0.0.1:port}, trusting what {@code tls} trusts, and announces {@code initialStreamWindow}
     * as every stream's flow-control window (0: the server may send no answer's body until a window update, which
     * this client never sends).
     */
    public static Http2Streams connect(SSLContext tls, int port, int initialStreamWindow) throws Exception {
        var trust = new SslContextFactory.Client();
        trust.setSslContext(tls);
        var client = new HTTP2Client();
        client.getClientConnector().setSslContextFactory(trust);
        client.start();
        var maxStreams = new CompletableFuture<Integer>();
        try {
            Session session = client.connect(client.getClientConnector().getSslContextFactory(),
                    new InetSocketAddress("127.0.0.1", port), new Session.Listener() {
                        @Override
                        public Map<Integer, Integer> onPreface(Session session) {
                            return Map.of(SettingsFrame.INITIAL_WINDOW_SIZE, initialStreamWindow);
                        }

                        @Override
                        public void onSettings(Session session, SettingsFrame frame) {
                            maxStreams.complete(frame.getSettings().getOrDefault(SettingsFrame.MAX_CONCURRENT_STREAMS,
                                    Integer.MAX_VALUE));
                        }
                    }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            return new Http2Streams(client, session, "https://127.0.0.1:" + port,
                    maxStreams.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        } catch (Exception e) {
            client.stop();
            throw e;
        }
    }

    /** The streams the server lets this connection have open at once, as its SETTINGS say. */
    public int maxStreams() {
        return maxStreams;
    }

    /**
     * Opens a stream: {@code method} on {@code path} with the header fields given, names and values in turn; its end
     * too unless a body is to follow ({@code endStream}).
     */
    public Exchange open(String method, String path, boolean endStream, String... fields) throws Exception {
        HttpFields.Mutable headers = HttpFields.build();
        for (int i = 0; i < fields.length; i += 2) {
            headers.add(fields[i], fields[i + 1]);
        }
        return open(new MetaData.Request(method, HttpURI.build(origin + path), HttpVersion.HTTP_2, headers), endStream);
    }

    /**
     * As {@link #open}, with {@code scheme} as the request's {@code :scheme} and every field sent as given: Jetty's
     * client leaves out of a header block the fields HTTP/2 forbids ({@code transfer-encoding}, {@code connection}...)
     * unless it does not know them by name, as here.
     */
    public Exchange openMalformed(String scheme, String method, String path, boolean endStream, String... fields)
            throws Exception {
        HttpFields.Mutable headers = HttpFields.build();
        for (int i = 0; i < fields.length; i += 2) {
            headers.add(new HttpField(null, fields[i], fields[i + 1]));
        }
        URI uri = URI.create(origin);
        String target = scheme + "://" + uri.getHost() + ":" + uri.getPort() + path;
        return open(new MetaData.Request(method, HttpURI.build(target), HttpVersion.HTTP_2, headers), endStream);
    }

    private Exchange open(MetaData.Request head, boolean endStream) throws Exception {
        var exchange = new Exchange();
        exchange.stream = session.newStream(new HeadersFrame(head, null, endStream), exchange)
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return exchange;
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP/2 client did not stop", e);
        }
    }

    /** One stream: what the client sends on it, and how it ended. */
    public static final class Exchange implements Stream.Listener {

        private final CompletableFuture<Integer> status = new CompletableFuture<>();
        private final CompletableFuture<Integer> reset = new CompletableFuture<>();
        private final CompletableFuture<Void> ended = new CompletableFuture<>();
        private volatile boolean closed;
        private volatile boolean failed;
        private Stream stream;

        /** Sends {@code bytes} as one DATA frame, ending the stream if {@code last}; a stream reset takes no more. */
        public void send(byte[] bytes, boolean last) throws Exception {
            stream.data(new DataFrame(stream.getId(), ByteBuffer.wrap(bytes), last))
                    .handle((sent, failure) -> null)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        /** The answer's status, once its head has arrived. */
        public CompletableFuture<Integer> status() {
            return status;
        }

        /** The error code of the server's {@code RST_STREAM}, once one has arrived. */
        public CompletableFuture<Integer> reset() {
            return reset;
        }

        /**
         * Done once the stream has ended, however it ended, and what ended it is known: its status, its reset or the
         * connection's failure.
         */
        public CompletableFuture<Void> ended() {
            return ended;
        }

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            if (frame.getMetaData() instanceof MetaData.Response response) {
                status.complete(response.getStatus());
            }
            if (!frame.isEndStream()) {
                stream.demand();
            }
            endIfKnown();
        }

        /** Reads the answer's body and drops it; past its end there is nothing more to ask for. */
        @Override
        public void onDataAvailable(Stream stream) {
            Stream.Data data = stream.readData();
            if (data == null) {
                stream.demand();
                return;
            }
            boolean last = data.frame().isEndStream();
            data.release();
            if (!last) {
                stream.demand();
            }
        }

        @Override
        public void onReset(Stream stream, ResetFrame frame, Callback callback) {
            reset.complete(frame.getError());
            endIfKnown();
            callback.succeeded();
        }

        @Override
        public void onFailure(Stream stream, int error, String reason, Throwable failure, Callback callback) {
            failed = true;
            endIfKnown();
            callback.succeeded();
        }

        /** Jetty tells a stream closed before it hands over the answer's head that closed it. */
        @Override
        public void onClosed(Stream stream) {
            closed = true;
            endIfKnown();
        }

        private void endIfKnown() {
            if (closed && (status.isDone() || reset.isDone() || failed)) {
                ended.complete(null);
            }
        }
    }
}
