package dev.plantstore.http;

import java.time.Duration;
import java.util.Optional;
import org.eclipse.jetty.http2.CloseState;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.api.server.ServerSessionListener;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's HTTP/2 server with tighter bounds on what one connection holds (docs/operations.md says why each), and
 * every stream Jetty resets on its own ending its request.
 */
final class Http2Connections extends HTTP2ServerConnectionFactory {

    /**
     * Streams one HTTP/2 connection may have open at once, against Jetty's 128. A stream whose answer waits on a
     * flow-control window the client never opens holds a request thread; two connections of 128 such streams took
     * 248 of the 250 threads, and no other client was answered. At 32, a connection holds at most 32 threads and 32 of
     * Jetty's 32 KiB response buffers, each for at most {@link #STREAM_IDLE_TIMEOUT}; an HTTP/1.1 connection holds one.
     */
    static final int MAX_CONCURRENT_STREAMS = 32;

    /**
     * How long a stream may wait with nothing sent or received on it before Jetty resets it and fails its pending
     * read or write, which gives the request thread back: against a window never opened, this bounds how long each
     * stream holds its thread. A handler still working (a slow store) is not cut: Jetty's servlet layer ignores the
     * time-out while no read or write is pending. Over HTTP/1.1 the connection's idle time-out does this.
     */
    static final Duration STREAM_IDLE_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Whether {@code connection} is an HTTP/2 one, and if so whether a stop may close it at once: it has no stream and
     * its GOAWAY has begun. Empty for any other connection.
     */
    static Optional<Boolean> idleAtStop(Connection connection) {
        if (!(connection instanceof HTTP2Connection http2)) {
            return Optional.empty();
        }
        HTTP2Session session = http2.getSession();
        return Optional.of(session.getCloseState() != CloseState.NOT_CLOSED && session.getStreamCount() == 0);
    }

    Http2Connections(HttpConfiguration http) {
        super(http);
        setMaxConcurrentStreams(MAX_CONCURRENT_STREAMS);
        setStreamIdleTimeout(STREAM_IDLE_TIMEOUT.toMillis());
    }

    @Override
    protected ServerSessionListener newSessionListener(Connector connector, EndPoint endPoint) {
        return new EndingResetStreams(endPoint);
    }

    /**
     * Why: Jetty resets a stream whose DATA disagrees with its Content-Length and tells its request nothing, so a
     * handler waiting for the body waited for good, and every later stop waited its whole 10 s time-out for that
     * request and exited 1 (Jetty 12.1.12). Each stream reset by either side is failed here once it has closed.
     * Jetty fails a request once only: one that has ended already, or that Jetty failed itself (the client's reset, a
     * failed answer), is left as it was.
     */
    private final class EndingResetStreams extends HTTPServerSessionListener {

        EndingResetStreams(EndPoint endPoint) {
            super(endPoint);
        }

        @Override
        public void onClosed(Stream stream) {
            if (stream.isReset()) {
                onFailure(stream, ErrorCode.CANCEL_STREAM_ERROR.code, "reset",
                        new EofException("the stream was reset"), Callback.NOOP);
            }
        }
    }
}
