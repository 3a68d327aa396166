package dev.plantstore.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A webhook receiver for throughput runs: {@code java -cp bench.jar dev.plantstore.bench.WebhookSink PORT} answers
 * every request 204 at once, keeps nothing, and prints how many it took when stopped, so that a run with a receiver
 * measures the server's cost of recording and sending events, not a slow receiver.
 */
public final class WebhookSink {

    private WebhookSink() {
    }

    public static void main(String[] args) throws IOException {
        var received = new AtomicLong();
        var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(args[0])), 256);
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            }
            received.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
                System.out.println("webhook sink received " + received.get() + " requests")));
    }
}
