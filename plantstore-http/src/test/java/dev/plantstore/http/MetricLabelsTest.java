package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.Sockets;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Whatever clients send, the request metrics keep a bounded set of series: no label takes a client's words. */
class MetricLabelsTest {

    private static final int MADE_UP = 3_000;
    private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH", "OTHER");

    /** Sends the requests pipelined on one connection, the last one closing it, and reads every answer. */
    private static void pipeline(int port, StringBuilder requests) throws IOException {
        requests.append("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        try (var socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            Sockets.readUntilClosed(socket, Duration.ofSeconds(60));
        }
    }

    @Test
    void thousandsOfMadeUpMethodsPathsAndOverridesLeaveTheSeriesBounded() throws IOException {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()).withMetrics(registry),
                "127.0.0.1", 0)) {
            var requests = new StringBuilder();
            for (int i = 0; i < MADE_UP; i++) {
                String method = i % 100 == 0 ? "M".repeat(4_000) + i : "M" + i;
                requests.append(method).append(" /x").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n")
                        .append(method).append(" /plants/").append(i).append(" HTTP/1.1\r\nHost: x\r\nAuthorization: ")
                        .append(TestApi.BEARER).append("\r\n\r\n")
                        .append("GET /health HTTP/1.1\r\nHost: x\r\nX-HTTP-Method-Override: O").append(i)
                        .append("\r\n\r\n");
                if (i % 500 == 499) {
                    pipeline(server.port(), requests);
                    requests.setLength(0);
                }
            }
        }
        String scrape = registry.scrape();
        var methods = new TreeSet<String>();
        var series = Pattern.compile("(?m)^http_server_requests_seconds_count\\{method=\"([^\"]*)\",route=\"([^\"]*)\""
                + ",status=\"(\\d+)\"}").matcher(scrape);
        int count = 0;
        while (series.find()) {
            methods.add(series.group(1));
            count++;
        }
        assertTrue(count > 0, scrape);
        assertTrue(KNOWN_METHODS.containsAll(methods), () -> "methods " + methods);
        assertTrue(methods.contains("OTHER"), () -> "methods " + methods);
        int series0 = count;
        assertTrue(series0 <= 20, () -> series0 + " series:\n" + scrape);
        assertTrue(scrape.length() < 100_000, () -> scrape.length() + " characters");
    }
}
