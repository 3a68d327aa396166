package dev.plantstore.http;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's {@link GracefulHandler} (requests in flight finish, new ones get 503 with {@code Connection: close}) that
 * also closes, when the shutdown starts, every idle keep-alive connection: Jetty would wait for each to close, or for
 * the shutdown idle time-out, which a stop after one request from the JDK's client then took whole. Idle is an
 * HTTP/1.1 connection that has answered, has nothing in flight and has read nothing since, or an HTTP/2 connection
 * with no stream once its GOAWAY has begun (frames without a stream carry no request, and a client may never answer
 * the GOAWAY). Any other connection is left to Jetty. Bytes arriving in the instant of the check are lost with the
 * connection, as a client must expect of any keep-alive connection.
 */
final class GracefulStopHandler extends GracefulHandler {

    /**
     * Connection attribute: the connection's input byte count when its last response completed, or {@link #IN_FLIGHT}
     * while a request is being handled. An HTTP/1.1 connection handles one request at a time.
     */
    private static final String INPUT_AT_LAST_RESPONSE = GracefulStopHandler.class.getName() + ".inputAtLastResponse";
    private static final long IN_FLIGHT = -1;
    private static final long RESCAN_MILLIS = 10;
    /** Without Jetty's HTTP/2 server, which plantstore-http declares optional, no connection is an HTTP/2 one. */
    private static final boolean HTTP2 = OptionalLibrary.JETTY_HTTP2.isPresentIn(OptionalLibrary.CLASS_PATH);

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        ConnectionMetaData metaData = request.getConnectionMetaData();
        Connection connection = metaData.getConnection();
        AtomicLong inputAtLastResponse = inputAtLastResponse(metaData);
        inputAtLastResponse.set(IN_FLIGHT);
        // Completion is when the last byte of the response has been written, not when the handler returns. A response
        // that completes after the shutdown began (its client may already have it and have asked for the stop) closes
        // its connection here: the scan in shutdown() saw the request in flight, and Jetty would wait out its
        // shutdown idle time-out (1 s in 1 of 5 measured stops).
        Request.addCompletionListener(request, failure -> {
            inputAtLastResponse.set(connection.getBytesIn());
            if (isShutdown()) {
                connection.getEndPoint().close();
            }
        });
        return super.handle(request, response, callback);
    }

    private static AtomicLong inputAtLastResponse(ConnectionMetaData metaData) {
        var existing = (AtomicLong) metaData.getAttribute(INPUT_AT_LAST_RESPONSE);
        if (existing != null) {
            return existing;
        }
        var created = new AtomicLong(IN_FLIGHT);
        metaData.setAttribute(INPUT_AT_LAST_RESPONSE, created);
        return created;
    }

    @Override
    public CompletableFuture<Void> shutdown() {
        CompletableFuture<Void> requestsDone = super.shutdown();
        closeIdleConnections();
        return requestsDone;
    }

    /**
     * Closes the idle connections, and looks again every {@link #RESCAN_MILLIS} ms while any stays open: a response
     * that completed just before the shutdown leaves its connection idle only once Jetty waits for its input again,
     * which can be after the first look (then the stop waited out the shutdown idle time-out: 1 in some 20 stops).
     */
    private void closeIdleConnections() {
        boolean anyOpen = false;
        for (Connector connector : getServer().getConnectors()) {
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                if (isIdle(endPoint)) {
                    endPoint.close();
                } else {
                    anyOpen = true;
                }
            }
        }
        if (anyOpen) {
            try {
                getServer().getScheduler().schedule(this::closeIdleConnections, RESCAN_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopped) {
                // The server has stopped: nothing is left to close.
            }
        }
    }

    private static boolean isIdle(EndPoint endPoint) {
        // Over TLS, the HTTP connection reads from the decrypted end point of the socket's TLS connection.
        EndPoint httpEndPoint = endPoint.getConnection() instanceof SslConnection tls ? tls.getSslEndPoint() : endPoint;
        Connection connection = httpEndPoint.getConnection();
        Optional<Boolean> http2Idle = HTTP2 ? Http2Connections.idleAtStop(connection) : Optional.empty();
        if (http2Idle.isPresent()) {
            return http2Idle.get();
        }
        if (!httpEndPoint.isFillInterested() || !(connection instanceof ConnectionMetaData metaData)) {
            return false;
        }
        var inputAtLastResponse = (AtomicLong) metaData.getAttribute(INPUT_AT_LAST_RESPONSE);
        if (inputAtLastResponse == null) {
            return false;
        }
        long inputThen = inputAtLastResponse.get();
        return inputThen != IN_FLIGHT && connection.getBytesIn() == inputThen;
    }
}
