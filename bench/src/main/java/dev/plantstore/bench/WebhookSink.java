package dev.plantstore.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver for benchmark runs: {@code java -cp bench.jar dev.plantstore.bench.WebhookSink PORT} answers
 * every event at once (204 unless told otherwise), so that a run measures the server's cost of recording and sending
 * events, not a slow receiver. It records each event's arrival and its lag behind the write (the body's
 * {@code timestamp}), and a script steers and reads it while it runs:
 * <ul>
 *   <li>{@code GET /stats[?part=N]}: the counts, lag percentiles and drain rates of {@link ReceivedEvents} as JSON;
 *   <li>{@code POST /mode?status=NNN}: answer events with that status from now on (503 for a receiver that is down);
 *   <li>{@code POST /reset}: forget what was received.
 * </ul>
 * Events are POSTed to any other path. Stopped, it prints how many requests it took.
 */
public final class WebhookSink {

    private static final int DEFAULT_PART = 100_000;
    private static final String TIMESTAMP_FIELD = "\"timestamp\":\"";

    private final ReceivedEvents received = new ReceivedEvents();
    private final AtomicInteger status = new AtomicInteger(204);
    private final HttpServer server;
    private final ExecutorService handlers = Executors.newFixedThreadPool(4);

    private WebhookSink(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        server.createContext("/", this::event);
        server.createContext("/stats", exchange -> control(exchange, "GET", () ->
                received.stats(query(exchange, "part").map(Integer::parseInt).orElse(DEFAULT_PART)).toJson()));
        server.createContext("/mode", exchange -> control(exchange, "POST", () -> {
            status.set(query(exchange, "status").map(Integer::parseInt).filter(code -> code >= 200 && code <= 599)
                    .orElseThrow(() -> new IllegalArgumentException("status=NNN, 200 to 599, is required")));
            return null;
        }));
        server.createContext("/reset", exchange -> control(exchange, "POST", () -> {
            received.reset();
            return null;
        }));
        server.setExecutor(handlers);
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: WebhookSink PORT");
            System.exit(2);
        }
        var sink = start(Integer.parseInt(args[0]));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("webhook sink received "
                + sink.received.stats(DEFAULT_PART).accepted() + " requests")));
    }

    static WebhookSink start(int port) throws IOException {
        var sink = new WebhookSink(port);
        sink.server.start();
        return sink;
    }

    /** What it took: a {@link TopicReader} counts a topic's records here, served by the same endpoints. */
    ReceivedEvents received() {
        return received;
    }

    int port() {
        return server.getAddress().getPort();
    }

    void stop() {
        server.stop(0);
        handlers.shutdownNow();
    }

    private void event(HttpExchange exchange) throws IOException {
        long arrivalMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        int answer = status.get();
        if (answer / 100 != 2) {
            received.reject();
            respond(exchange, answer, null);
            return;
        }
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        Optional<Instant> written = writtenAt(new String(body, StandardCharsets.UTF_8));
        if (id == null || written.isEmpty()) {
            respond(exchange, 400, "{\"error\":\"a webhook-id header and a body with a timestamp are required\"}");
            return;
        }
        received.accept(id, arrivalMicros, arrivalMicros / 1000 - written.get().toEpochMilli());
        respond(exchange, answer, null);
    }

    /** The body's {@code timestamp}, the write's time; the body is the server's, so no JSON parser is needed. */
    static Optional<Instant> writtenAt(String body) {
        int start = body.indexOf(TIMESTAMP_FIELD);
        int end = start < 0 ? -1 : body.indexOf('"', start + TIMESTAMP_FIELD.length());
        if (end < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(body.substring(start + TIMESTAMP_FIELD.length(), end)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private interface ControlAction {
        String run();
    }

    private static void control(HttpExchange exchange, String method, ControlAction action) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        if (!exchange.getRequestMethod().equals(method)) {
            respond(exchange, 405, "{\"error\":\"" + exchange.getRequestURI().getPath() + " takes " + method + "\"}");
            return;
        }
        try {
            String json = action.run();
            respond(exchange, json == null ? 204 : 200, json);
        } catch (IllegalArgumentException e) {
            respond(exchange, 400, "{\"error\":\"" + e.getMessage() + "\"}");
        }
    }

    private static Optional<String> query(HttpExchange exchange, String name) {
        String query = exchange.getRequestURI().getQuery();
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=")) {
                return Optional.of(pair.substring(name.length() + 1));
            }
        }
        return Optional.empty();
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        if (json == null) {
            exchange.sendResponseHeaders(status, -1);
        } else {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }
}
