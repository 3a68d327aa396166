package dev.plantstore.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ServerSocketFactory;

/**
 * A webhook receiver on a raw socket of 127.0.0.1 that writes every byte of its answers as a script says: the way to
 * act out a broken or hostile receiver, which no HTTP server library would let a test be. It reads each request (head
 * and a {@code Content-Length} body), keeps it, and answers with what the current script returns for it.
 */
public final class ScriptedReceiver implements AutoCloseable {

    /**
     * One request as received: the {@code index}th (from 0), its bytes as text, and whether the answer written for it
     * was a well-formed 2xx of its own.
     */
    public record Request(int index, String raw, String webhookId, String body, boolean answeredWith2xx) {

        /** The plant id in the event's {@code data}. */
        public long plantId() {
            String rest = body.substring(body.indexOf("\"id\":") + "\"id\":".length());
            return Long.parseLong(rest.replaceAll("[,}].*", ""));
        }
    }

    /** What to do after writing an answer's bytes. */
    public enum Then {
        /** Read the next request on the connection. */
        KEEP,
        /** Close the connection. */
        CLOSE,
        /** Keep the connection open and never answer on it again, nor read from it. */
        FALL_SILENT
    }

    /**
     * The bytes written for one request: {@code before}, then {@code padding} bytes of {@code x} written as they go,
     * never held (so an answer may be larger than either side's heap), then {@code after}; then what the connection
     * does.
     * {@code accepts} when they begin with a well-formed 2xx answer to this request, which may deliver its event.
     */
    public record Answer(byte[] before, long padding, byte[] after, Then then, boolean accepts) {

        /** {@code text} as ISO-8859-1 bytes, then {@code then}; no well-formed 2xx. */
        public static Answer refusing(String text, Then then) {
            return padded(text, 0, "", then, false);
        }

        /** {@code text} as ISO-8859-1 bytes, beginning with a well-formed 2xx, then {@code then}. */
        public static Answer accepting(String text, Then then) {
            return padded(text, 0, "", then, true);
        }

        /**
         * {@code before}, {@code padding} bytes of {@code x} and {@code after}, as ISO-8859-1 bytes, then
         * {@code then}; {@code accepts} when they begin with a well-formed 2xx.
         */
        public static Answer padded(String before, long padding, String after, Then then, boolean accepts) {
            return new Answer(before.getBytes(StandardCharsets.ISO_8859_1), padding,
                    after.getBytes(StandardCharsets.ISO_8859_1), then, accepts);
        }

        /** A well-formed, empty {@code 200 OK}, the connection kept. */
        public static Answer ok() {
            return accepting(OK, Then.KEEP);
        }

        private void writeTo(OutputStream out) throws IOException {
            out.write(before);
            byte[] run = new byte[64 * 1024];
            Arrays.fill(run, (byte) 'x');
            for (long left = padding; left > 0; left -= run.length) {
                out.write(run, 0, (int) Math.min(run.length, left));
            }
            out.write(after);
        }
    }

    /** A well-formed, empty {@code 200 OK}. */
    public static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

    private final ServerSocket server;
    private final Thread acceptor;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger atOnce = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private final AtomicInteger counted = new AtomicInteger();
    private final List<Request> requests = new ArrayList<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Function<Request, Answer> script = request -> Answer.ok();

    public ScriptedReceiver() throws IOException {
        this(ServerSocketFactory.getDefault());
    }

    /** A receiver whose connections {@code sockets} makes: TLS, for one. */
    public ScriptedReceiver(ServerSocketFactory sockets) throws IOException {
        server = sockets.createServerSocket(0, 256, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "scripted receiver");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port() + "/hook");
    }

    public int port() {
        return server.getLocalPort();
    }

    /** How many connections were opened to it. */
    public int accepted() {
        return accepted.get();
    }

    /** The most requests it held unanswered at once. */
    public int mostAtOnce() {
        return mostAtOnce.get();
    }

    /** Closes every connection open now, as a receiver that drops idle connections does. */
    public void closeEveryConnection() throws IOException {
        for (Socket socket : open) {
            socket.close();
        }
    }

    /** From now on, each request is answered with what {@code script} returns for it. */
    public void answer(Function<Request, Answer> script) {
        this.script = script;
    }

    /** Well-formed {@code 200 OK} answers from now on, as a mended receiver gives. */
    public void mend() {
        answer(request -> Answer.ok());
    }

    public synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The plant ids of which some request was answered with a well-formed 2xx of its own. */
    public synchronized Set<Long> answeredFor2xx() {
        Set<Long> ids = new TreeSet<>();
        for (Request request : requests) {
            if (request.answeredWith2xx()) {
                ids.add(request.plantId());
            }
        }
        return ids;
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        server.close();
        closeEveryConnection();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                accepted.incrementAndGet();
                open.add(socket);
                Thread connection = new Thread(() -> serve(socket), "scripted receiver connection");
                connection.setDaemon(true);
                connection.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                Request read = read(in, counted);
                if (read == null) {
                    return;
                }
                mostAtOnce.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
                Answer answer = script.apply(read);
                var request = new Request(read.index(), read.raw(), read.webhookId(), read.body(), answer.accepts());
                synchronized (this) {
                    requests.add(request);
                }
                atOnce.decrementAndGet();
                answer.writeTo(out);
                out.flush();
                if (answer.then() == Then.CLOSE) {
                    return;
                }
                if (answer.then() == Then.FALL_SILENT) {
                    closed.await();
                    return;
                }
            }
        } catch (IOException e) {
            // The other side closed the connection: nothing more to read.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(socket);
        }
    }

    /** One request, numbered by {@code counted}, or null at the end of the stream. */
    private static Request read(InputStream in, AtomicInteger counted) throws IOException {
        var head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String id = "";
        int length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals("content-length")) {
                length = Integer.parseInt(value);
            } else if (name.equals("webhook-id")) {
                id = value;
            }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Request(counted.getAndIncrement(), head.toString(StandardCharsets.ISO_8859_1) + body, id, body,
                false);
    }
}
