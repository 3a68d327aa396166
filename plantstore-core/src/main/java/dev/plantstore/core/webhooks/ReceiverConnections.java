package dev.plantstore.core.webhooks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The HTTP/1.1 connections to one receiver: up to {@code most} requests at once, each on a kept-alive connection of its
 * own thread, opened as the load asks for them and closed after {@link #IDLE} without a request.
 *
 * <p>It exists because the JDK's {@code java.net.http} client passes every exchange through one selector thread and
 * an executor: on JDK 17 it sent about 2,000 requests a second to one receiver however many were in flight, where
 * blocking sockets on the same machine send more than 40,000. A webhook needs little of HTTP: a POST with a known
 * length, and an answer whose status decides; the body of the answer is read past, never kept.
 *
 * <p>An attempt's outcome is the status of the answer's head, which must arrive within the time-out; the rest of the
 * answer only decides whether the connection can be used again. A kept-alive connection that the receiver closed
 * while it was idle is found only when a request is written to it: an attempt on such a reused connection that gets
 * no byte of an answer is made once more on a new one, which at-least-once delivery allows.
 */
final class ReceiverConnections implements AutoCloseable {

    /** How long an unused connection stays open: below the 5 s many servers keep one, so they rarely close it first. */
    static final Duration IDLE = Duration.ofSeconds(4);
    /** The longest answer's head, and the most of an answer's body read past to keep its connection. */
    private static final int MOST_HEAD_BYTES = 16 * 1024;
    private static final long MOST_SKIPPED_BODY_BYTES = 1024 * 1024;

    /** What an attempt came to: the answer's status, or why there was none. */
    sealed interface Outcome {
        record Answered(int status) implements Outcome {
        }

        record Failed(String reason) implements Outcome {
        }
    }

    /** Hears how each attempt ended, on a connection's thread. */
    interface Ended {
        void ended(PlantEvent event, Outcome outcome);
    }

    private final String host;
    private final int port;
    private final boolean tls;
    private final SSLSocketFactory tlsSockets;
    private final Duration timeout;
    private final String threadName;
    private final byte[] requestLinePrefix;
    private final Function<PlantEvent, byte[]> requestFor;
    private final Ended ended;
    private final int most;
    private final LinkedBlockingQueue<PlantEvent> queued = new LinkedBlockingQueue<>();
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger idleThreads = new AtomicInteger();
    private volatile boolean closed;

    /**
     * Connections to {@code receiver}; {@code requestFor} gives an event's request from its headers on (the request
     * line and {@code Host} are added here), and {@code ended} hears each outcome.
     */
    ReceiverConnections(URI receiver, int most, Duration timeout, SSLSocketFactory tlsSockets,
                        Function<PlantEvent, byte[]> requestFor, Ended ended) {
        this.tls = "https".equalsIgnoreCase(receiver.getScheme());
        this.host = receiver.getHost();
        this.port = receiver.getPort() >= 0 ? receiver.getPort() : tls ? 443 : 80;
        this.tlsSockets = tlsSockets;
        this.most = most;
        this.timeout = timeout;
        this.requestFor = requestFor;
        this.ended = ended;
        this.threadName = "plantstore-webhook " + DeliverySettings.redacted(receiver);
        String path = receiver.getRawPath() == null || receiver.getRawPath().isEmpty() ? "/" : receiver.getRawPath();
        String target = receiver.getRawQuery() == null ? path : path + "?" + receiver.getRawQuery();
        String authority = receiver.getRawAuthority();
        this.requestLinePrefix = ("POST " + target + " HTTP/1.1\r\nHost: "
                + authority.substring(authority.lastIndexOf('@') + 1) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Sends {@code event} on a free connection, or the next to come free; the caller bounds how many wait. */
    void send(PlantEvent event) {
        queued.add(event);
        startThreadIfNeeded();
    }

    /** A thread more while requests wait that the idle threads will not take at once, up to {@code most}. */
    private void startThreadIfNeeded() {
        int running;
        do {
            running = threads.get();
            if (closed || queued.size() <= idleThreads.get() || running >= most) {
                return;
            }
        } while (!threads.compareAndSet(running, running + 1));
        Thread thread = new Thread(this::serve, threadName + " connection");
        thread.setDaemon(true);
        thread.start();
    }

    /** Threads waiting for a request to send. */
    int idleThreads() {
        return idleThreads.get();
    }

    /** Closes every connection; events not yet answered get no outcome. */
    @Override
    public void close() {
        closed = true;
        open.forEach(Connection::close);
        queued.clear();
    }

    /** One connection's thread: sends what is queued until the connection has been idle too long. */
    private void serve() {
        Connection connection = null;
        try {
            while (!closed) {
                idleThreads.incrementAndGet();
                PlantEvent event;
                try {
                    event = queued.poll(IDLE.toMillis(), TimeUnit.MILLISECONDS);
                } finally {
                    idleThreads.decrementAndGet();
                }
                if (event == null) {
                    break;
                }
                connection = attempt(event, connection);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            threads.decrementAndGet();
            if (connection != null) {
                connection.close();
            }
            // An event queued as this thread gave up would otherwise wait for the next send.
            startThreadIfNeeded();
        }
    }

    /** Makes one attempt; returns the connection to use next, or null when it cannot be used again. */
    private Connection attempt(PlantEvent event, Connection kept) {
        byte[] request = requestFor.apply(event);
        long deadline = System.nanoTime() + timeout.toNanos();
        Connection connection = kept;
        try {
            if (connection != null) {
                try {
                    return answer(event, connection, request, deadline);
                } catch (ClosedUnderUs e) {
                    connection.close();
                }
            }
            connection = open(deadline);
            return answer(event, connection, request, deadline);
        } catch (SocketTimeoutException e) {
            fail(event, "no answer within " + timeout.toSeconds() + " s");
        } catch (IOException e) {
            fail(event, describe(e));
        }
        if (connection != null) {
            connection.close();
        }
        return null;
    }

    /** Writes the request and reads the answer's head; returns the connection if it can take the next request. */
    private Connection answer(PlantEvent event, Connection connection, byte[] request, long deadline)
            throws IOException {
        try {
            connection.write(requestLinePrefix, request);
            connection.awaitAnswer(deadline);
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            if (connection.reused) {
                throw new ClosedUnderUs();
            }
            throw e;
        }
        Head head = connection.readHead(deadline);
        ended.ended(event, new Outcome.Answered(head.status()));
        if (connection.skipBody(head, System.nanoTime() + timeout.toNanos())) {
            return connection;
        }
        connection.close();
        return null;
    }

    /** A failure while closing is the close's doing, not the receiver's: the event stays leased for a later try. */
    private void fail(PlantEvent event, String reason) {
        if (!closed) {
            ended.ended(event, new Outcome.Failed(reason));
        }
    }

    private Connection open(long deadline) throws IOException {
        var address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IOException("its host name could not be resolved");
        }
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address, remainingMillis(deadline));
            if (tls) {
                SSLSocket secured = (SSLSocket) tlsSockets.createSocket(socket, host, port, true);
                SSLParameters parameters = secured.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                secured.setSSLParameters(parameters);
                secured.setSoTimeout(remainingMillis(deadline));
                secured.startHandshake();
                socket = secured;
            }
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        var connection = new Connection(socket);
        open.add(connection);
        if (closed) {
            connection.close();
            throw new IOException("closed");
        }
        return connection;
    }

    private static int remainingMillis(long deadlineNanos) throws SocketTimeoutException {
        long millis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        if (millis <= 0) {
            throw new SocketTimeoutException();
        }
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    /** This class's own failures by their words; the JDK's by their type too ({@code ConnectException: ...}). */
    private static String describe(IOException failure) {
        String message = failure.getMessage();
        if (message == null) {
            return failure.getClass().getSimpleName();
        }
        boolean own = failure.getClass() == IOException.class || failure.getClass() == EOFException.class;
        return own ? message : failure.getClass().getSimpleName() + ": " + message;
    }

    /** A reused connection that ended before any byte of the answer: the receiver had closed it as idle. */
    private static final class ClosedUnderUs extends IOException {
        private static final long serialVersionUID = 1L;

        ClosedUnderUs() {
            super("the connection was closed without an answer");
        }
    }

    /** What the head of an answer says; {@code keepAlive} false when the receiver will close the connection. */
    private record Head(int status, long contentLength, boolean chunked, boolean keepAlive) {
    }

    private final class Connection {

        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private boolean reused;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 8192);
            this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        }

        /** One flush, so that the request line and the rest leave in one packet where they fit. */
        void write(byte[] requestLine, byte[] rest) throws IOException {
            out.write(requestLine);
            out.write(rest);
            out.flush();
        }

        /** Waits for the answer's first byte, which stays to be read. */
        void awaitAnswer(long deadline) throws IOException {
            socket.setSoTimeout(remainingMillis(deadline));
            in.mark(1);
            if (in.read() < 0) {
                throw new EOFException("the connection was closed without an answer");
            }
            in.reset();
        }

        /** The answer's final head, past any interim (1xx) ones. */
        Head readHead(long deadline) throws IOException {
            while (true) {
                Head head = readOneHead(deadline);
                if (head.status() >= 200) {
                    reused = true;
                    return head;
                }
            }
        }

        private Head readOneHead(long deadline) throws IOException {
            var head = new StringBuilder();
            while (head.length() < 2 || !endsHead(head)) {
                socket.setSoTimeout(remainingMillis(deadline));
                int next = in.read();
                if (next < 0) {
                    throw new EOFException("the connection was closed in the middle of an answer");
                }
                if (head.length() >= MOST_HEAD_BYTES) {
                    throw new IOException("the answer's head passed " + MOST_HEAD_BYTES + " bytes");
                }
                head.append((char) next);
            }
            return parse(head.toString());
        }

        private boolean endsHead(StringBuilder head) {
            int length = head.length();
            return head.charAt(length - 1) == '\n'
                    && (head.charAt(length - 2) == '\n'
                    || (length >= 4 && head.charAt(length - 2) == '\r' && head.charAt(length - 3) == '\n'));
        }

        private Head parse(String text) throws IOException {
            String[] lines = text.split("\r?\n");
            String[] statusLine = lines[0].split(" ", 3);
            if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.") || statusLine[1].length() != 3) {
                throw new IOException("the answer is not HTTP/1.x");
            }
            int status;
            try {
                status = Integer.parseInt(statusLine[1]);
            } catch (NumberFormatException e) {
                throw new IOException("the answer's status is not a number");
            }
            long contentLength = -1;
            boolean chunked = false;
            boolean keepAlive = !statusLine[0].equals("HTTP/1.0");
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "content-length" -> contentLength = parseLength(value);
                    case "transfer-encoding" -> chunked = value.endsWith("chunked");
                    case "connection" -> keepAlive = value.contains("keep-alive")
                            || (keepAlive && !value.contains("close"));
                    default -> {
                    }
                }
            }
            return new Head(status, contentLength, chunked, keepAlive);
        }

        private long parseLength(String value) throws IOException {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IOException("the answer's Content-Length is not a number");
            }
        }

        /** Reads past the answer's body; false when the connection cannot take another request. */
        boolean skipBody(Head head, long deadline) {
            if (!head.keepAlive()) {
                return false;
            }
            if (head.status() == 204 || head.status() == 304) {
                return true;
            }
            try {
                if (head.chunked()) {
                    return skipChunks(deadline);
                }
                if (head.contentLength() < 0 || head.contentLength() > MOST_SKIPPED_BODY_BYTES) {
                    return false;
                }
                skip(head.contentLength(), deadline);
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        private boolean skipChunks(long deadline) throws IOException {
            long total = 0;
            while (true) {
                String sizeLine = line(deadline);
                int extension = sizeLine.indexOf(';');
                long size;
                try {
                    size = Long.parseLong((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
                } catch (NumberFormatException e) {
                    return false;
                }
                total += size;
                if (size < 0 || total > MOST_SKIPPED_BODY_BYTES) {
                    return false;
                }
                if (size == 0) {
                    String trailer;
                    do {
                        trailer = line(deadline);
                    } while (!trailer.isEmpty());
                    return true;
                }
                skip(size, deadline);
                line(deadline);
            }
        }

        private String line(long deadline) throws IOException {
            var line = new StringBuilder();
            while (true) {
                socket.setSoTimeout(remainingMillis(deadline));
                int next = in.read();
                if (next < 0) {
                    throw new EOFException();
                }
                if (next == '\n') {
                    int length = line.length();
                    return length > 0 && line.charAt(length - 1) == '\r' ? line.substring(0, length - 1)
                            : line.toString();
                }
                if (line.length() >= MOST_HEAD_BYTES) {
                    throw new IOException("line too long");
                }
                line.append((char) next);
            }
        }

        private void skip(long bytes, long deadline) throws IOException {
            long left = bytes;
            while (left > 0) {
                socket.setSoTimeout(remainingMillis(deadline));
                long skipped = in.skip(left);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new EOFException();
                    }
                    skipped = 1;
                }
                left -= skipped;
            }
        }

        void close() {
            open.remove(this);
            try {
                socket.close();
            } catch (IOException e) {
                // Closing is all that is left to do with it.
            }
        }
    }
}
