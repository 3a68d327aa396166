package dev.plantstore.http;

import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * Over HTTP/2, reads and drops what of a request body its answer did not need (a refused token is answered before
 * the body is read), so the stream ends cleanly: Jetty would reset it with CANCEL, where RFC 9113 §8.1 asks for
 * NO_ERROR, and the JDK 25 client reports such a reset instead of the answer it has. Only a body within the limit and
 * at the slow-body rule's rate is read; any other is left to Jetty's reset. HTTP/1.1 needs none: Jetty closes the
 * connection after such an answer.
 */
final class UnreadBodyDrain extends Handler.Wrapper {

    private final int maxBodyBytes;
    private final long minBytesPerSecond;

    UnreadBodyDrain(int maxBodyBytes, long minBytesPerSecond) {
        this.maxBodyBytes = maxBodyBytes;
        this.minBytesPerSecond = minBytesPerSecond;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2
                || request.getLength() > maxBodyBytes) {
            return super.handle(request, response, callback);
        }
        var drain = new Drain(request, callback, maxBodyBytes, minBytesPerSecond);
        return super.handle(new DrainedLater(request), response, drain);
    }

    /**
     * The request as the handlers see it. Jetty's servlet layer, answering, consumes what has arrived of an unread
     * body and, when that is not all, marks the stream to be reset at the end; here it consumes what has arrived and
     * leaves the rest to {@link Drain}.
     */
    private static final class DrainedLater extends Request.Wrapper {

        DrainedLater(Request request) {
            super(request);
        }

        @Override
        public boolean consumeAvailable() {
            while (true) {
                Content.Chunk chunk = read();
                if (chunk == null) {
                    return false;
                }
                boolean last = chunk.isLast();
                boolean failed = chunk.getFailure() != null;
                chunk.release();
                if (last) {
                    return !failed;
                }
            }
        }
    }

    /** Completes the exchange once the rest of the body has been read, or once it need not be any more. */
    private record Drain(Request request, Callback completion, int maxBodyBytes, long minBytesPerSecond)
            implements Callback, Invocable.Task {

        @Override
        public void succeeded() {
            drain();
        }

        @Override
        public void failed(Throwable failure) {
            completion.failed(failure);
        }

        /** Jetty calls this, on whatever thread, when more of the body has arrived or the connection failed. */
        @Override
        public void run() {
            drain();
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }

        /** Reads on while the body, counted from its first byte, is within the limit and arrives fast enough. */
        private void drain() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    if (BodyBeforeHandler.slowerThanTheMinimum(request, Request.getContentBytesRead(request),
                            minBytesPerSecond)) {
                        completion.succeeded();
                    } else {
                        request.demand(this);
                    }
                    return;
                }
                boolean ended = chunk.isLast() || chunk.getFailure() != null;
                chunk.release();
                if (ended || Request.getContentBytesRead(request) > maxBodyBytes) {
                    completion.succeeded();
                    return;
                }
            }
        }
    }
}
