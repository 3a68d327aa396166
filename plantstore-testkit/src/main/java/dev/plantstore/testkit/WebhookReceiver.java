package dev.plantstore.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A webhook receiver on a real HTTP server (the JDK's), on a free port of 127.0.0.1: it keeps every request it gets,
 * and answers with the status it is set to, or holds the request unanswered while set to hang.
 */
public final class WebhookReceiver implements AutoCloseable {

    /**
     * One request as received, and when ({@link System#nanoTime()}); {@code query} is its URL's, {@code traceparent}
     * and {@code tracestate} its headers of those names; each empty when absent.
     */
    public record Received(String id, String timestamp, String signature, String body, int answered,
                           long arrivedAtNanos, String query, String traceparent, String tracestate) {

        /** The event's {@code type}, read from the body. */
        public String type() {
            int start = body.indexOf("\"type\":\"") + "\"type\":\"".length();
            return body.substring(start, body.indexOf('"', start));
        }

        /** The plant id in the event's {@code data}. */
        public long plantId() {
            String rest = body.substring(body.indexOf("\"id\":") + "\"id\":".length());
            return Long.parseLong(rest.replaceAll("[,}].*", ""));
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new ArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private final java.util.Map<String, Integer> inFlight = new java.util.HashMap<>();
    private int sameIdOverlaps;
    private long acceptedCount;
    private volatile int status = 200;
    private volatile String retryAfter;
    private volatile long delayMillis;
    private volatile boolean hang;

    public WebhookReceiver() throws IOException {
        this(0);
    }

    /**
     * A receiver on a free port, for a test's field ({@code @AutoClose WebhookReceiver receiver =
     * WebhookReceiver.onFreePort();}), where a checked exception cannot be thrown.
     */
    public static WebhookReceiver onFreePort() {
        try {
            return new WebhookReceiver();
        } catch (IOException e) {
            throw new UncheckedIOException("the test's webhook receiver could not listen", e);
        }
    }

    /** A receiver on {@code port} of 127.0.0.1, such as one a store was given while nothing listened there. */
    public WebhookReceiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    /** Every later request is answered with {@code status}. */
    public void answer(int status) {
        answer(status, null);
    }

    /** Every later request is answered with {@code status} and, unless null, {@code Retry-After: retryAfter}. */
    public void answer(int status, String retryAfter) {
        this.retryAfter = retryAfter;
        this.status = status;
        this.hang = false;
    }

    /** Every later answer comes {@code millis} after its request, so that overlapping requests would show. */
    public void delay(long millis) {
        this.delayMillis = millis;
    }

    /** How many requests arrived while another one with the same webhook-id was still unanswered. */
    public synchronized int sameIdOverlaps() {
        return sameIdOverlaps;
    }

    /** Every later request is held without an answer until {@link #close()}. */
    public void hang() {
        this.hang = true;
    }

    /** The requests so far, answered or not, in the order they arrived. */
    public synchronized List<Received> received() {
        return List.copyOf(received);
    }

    /** How many requests so far were answered 2xx. */
    public synchronized long acceptedCount() {
        return acceptedCount;
    }

    /** The requests so far that were answered 2xx. */
    public synchronized List<Received> accepted() {
        return received.stream().filter(r -> r.answered() >= 200 && r.answered() < 300).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        var headers = exchange.getRequestHeaders();
        boolean hanging = hang;
        int answer = hanging ? 0 : status;
        String id = headers.getFirst("webhook-id");
        synchronized (this) {
            received.add(new Received(id, headers.getFirst("webhook-timestamp"),
                    headers.getFirst("webhook-signature"), body, answer, System.nanoTime(),
                    exchange.getRequestURI().getRawQuery() == null ? "" : exchange.getRequestURI().getRawQuery(),
                    Objects.toString(headers.getFirst("traceparent"), ""),
                    Objects.toString(headers.getFirst("tracestate"), "")));
            if (answer >= 200 && answer < 300) {
                acceptedCount++;
            }
            if (inFlight.merge(String.valueOf(id), 1, Integer::sum) > 1) {
                sameIdOverlaps++;
            }
        }
        try {
            if (hanging) {
                released.await();
            } else if (delayMillis > 0) {
                Thread.sleep(delayMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                inFlight.merge(String.valueOf(id), -1, Integer::sum);
            }
        }
        String asked = retryAfter;
        if (!hanging && asked != null) {
            exchange.getResponseHeaders().set("Retry-After", asked);
        }
        exchange.sendResponseHeaders(hanging ? 503 : answer, -1);
        exchange.close();
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
