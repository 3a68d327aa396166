package dev.plantstore.http;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.EagerContentHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.NanoTime;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * Reads an admitted create's body through Jetty's demand API before the handlers run, so that Javalin's blocking read
 * finds it complete and a slow or silent client holds no thread, only a buffer of what it sent (250 such clients had
 * frozen the server; JDK 17 has no virtual threads). The buffer grows with what arrived, never by what a client
 * declares, and Jetty's network buffers are released at once. After {@link #GRACE_SECONDS} a body must keep the
 * minimum rate; one too slow or silent for the idle time-out reaches the handler as a {@link TimeoutException} (408).
 * A body declared over the limit is not read (413 at once); one that grows past it is handed on at one byte past.
 * Only a request {@code admitted} accepts is read ahead, so a client without a token makes the server hold nothing.
 */
final class BodyBeforeHandler implements EagerContentHandler.ContentLoaderFactory {

    /** How long a body may arrive at any pace before the minimum rate applies. */
    static final long GRACE_SECONDS = 5;

    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
    private static final int FIRST_CAPACITY = 1024;

    private final int maxBodyBytes;
    private final long minBytesPerSecond;
    private final Predicate<Request> admitted;

    BodyBeforeHandler(int maxBodyBytes, long minBytesPerSecond, Predicate<Request> admitted) {
        this.maxBodyBytes = maxBodyBytes;
        this.minBytesPerSecond = minBytesPerSecond;
        this.admitted = admitted;
    }

    /** A Jetty handler that reads the body of every request {@code admitted} accepts this way before its handler. */
    static Handler.Wrapper handler(int maxBodyBytes, long minBytesPerSecond, Predicate<Request> admitted) {
        return new EagerContentHandler(new BodyBeforeHandler(maxBodyBytes, minBytesPerSecond, admitted));
    }

    /**
     * Whether a body of which {@code bytes} have arrived so far is too slow: past the grace period, fewer bytes than
     * the minimum rate asks for the time since the grace period ended. A minimum of zero or less lets any pace
     * through.
     */
    static boolean slowerThanTheMinimum(Request request, long bytes, long minBytesPerSecond) {
        if (minBytesPerSecond <= 0) {
            return false;
        }
        long elapsed = NanoTime.since(request.getBeginNanoTime());
        return elapsed > GRACE_NANOS && bytes < minBytesPerSecond * (elapsed - GRACE_NANOS) / 1_000_000_000L;
    }

    @Override
    public String getApplicableMimeType() {
        return null;
    }

    @Override
    public EagerContentHandler.ContentLoader newContentLoader(String contentType, String mimeType, Handler handler,
                                                             Request request, Response response, Callback callback) {
        if (request.getLength() > maxBodyBytes || !admitted.test(request)) {
            return null;
        }
        return new Loader(handler, request, response, callback);
    }

    private final class Loader extends EagerContentHandler.ContentLoader implements Invocable.Task {

        private final long declaredLength;
        private byte[] bytes;
        private int size;

        Loader(Handler handler, Request request, Response response, Callback callback) {
            super(handler, request, response, callback);
            declaredLength = request.getLength();
            bytes = new byte[(int) Math.min(FIRST_CAPACITY, declaredLength >= 0 ? declaredLength : FIRST_CAPACITY)];
        }

        @Override
        protected void load() {
            read(false);
        }

        /** Jetty calls this, on whatever thread, when more of the body has arrived or the connection failed. */
        @Override
        public void run() {
            read(true);
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }

        private void read(boolean onDemand) {
            Request request = getRequest();
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    if (slowerThanTheMinimum(request, size, minBytesPerSecond)) {
                        handOn(onDemand, Content.Chunk.from(new TimeoutException(
                                "request body arrived slower than " + minBytesPerSecond + " bytes/s"), true));
                    } else {
                        request.demand(this);
                    }
                    return;
                }
                if (chunk.getFailure() != null) {
                    // A transient failure (the idle time-out) ends this body too: the handler answers it once.
                    handOn(onDemand, Content.Chunk.from(chunk.getFailure(), true));
                    return;
                }
                append(chunk.getByteBuffer());
                boolean last = chunk.isLast();
                chunk.release();
                if (last) {
                    handOn(onDemand, Content.Chunk.EOF);
                    return;
                }
                if (size > maxBodyBytes) {
                    handOn(onDemand, null);
                    return;
                }
            }
        }

        private void append(ByteBuffer buffer) {
            int wanted = Math.min(buffer.remaining(), maxBodyBytes + 1 - size);
            if (size + wanted > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(maxBodyBytes + 1, Math.max(size + wanted, bytes.length * 2)));
            }
            buffer.get(bytes, size, wanted);
            size += wanted;
        }

        /**
         * Calls the handlers with the body read so far and then {@code end}: end of body, a failure, or (null) the
         * rest of the body still unread. From a demand callback the handlers, which block, go to a pool thread.
         */
        private void handOn(boolean onDemand, Content.Chunk end) {
            var buffered = new BufferedBody(getRequest(), ByteBuffer.wrap(bytes, 0, size), end);
            if (onDemand) {
                getRequest().getContext().execute(() -> handle(buffered, getResponse(), getCallback()));
            } else {
                handle(buffered, getResponse(), getCallback());
            }
        }
    }

    /** The request as the handlers see it: the body read ahead, then how it ended, then the connection's own reads. */
    private static final class BufferedBody extends Request.Wrapper {

        private Content.Chunk body;
        private Content.Chunk end;

        BufferedBody(Request request, ByteBuffer body, Content.Chunk end) {
            super(request);
            this.body = Content.Chunk.from(body, end == Content.Chunk.EOF);
            this.end = end == Content.Chunk.EOF ? null : end;
        }

        @Override
        public Content.Chunk read() {
            Content.Chunk next = body;
            if (next != null) {
                body = null;
                return next;
            }
            next = end;
            if (next != null) {
                end = null;
                return next;
            }
            return super.read();
        }

        @Override
        public void demand(Runnable demandCallback) {
            if (body != null || end != null) {
                demandCallback.run();
            } else {
                super.demand(demandCallback);
            }
        }
    }
}
