package dev.plantstore.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OTLP/HTTP collector for benchmark runs: {@code java -cp bench.jar dev.plantstore.bench.OtlpSink PORT} takes
 * every export to {@code /v1/traces} and answers 200 at once, so that a run measures what tracing costs the server,
 * not a collector. Stopped, it prints how many exports and bytes it took.
 */
public final class OtlpSink {

    private final AtomicLong exports = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    private OtlpSink() {
    }

    public static void main(String[] args) throws IOException {
        var sink = new OtlpSink();
        ExecutorService handlers = Executors.newFixedThreadPool(2);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(args[0])), 64);
        server.createContext("/v1/traces", sink::export);
        server.setExecutor(handlers);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("otlp sink: " + sink.exports.get()
                + " exports, " + sink.bytes.get() + " bytes")));
        server.start();
    }

    private void export(HttpExchange exchange) throws IOException {
        try (InputStream body = exchange.getRequestBody()) {
            bytes.addAndGet(body.transferTo(OutputStream.nullOutputStream()));
        }
        exports.incrementAndGet();
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
    }
}
