package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The management port, the store named at start, and the drain on SIGTERM, on the built jar. */
class OperabilityIT {

    private static final String TOKEN = "operability-token";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The request id the operations page's commands use, in place of the one a client reports. */
    private static final String OPERATIONS_PAGE_ID = "7f3a0c…";

    @TempDir
    Path dir;

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> create(RunningJar jar, long id) throws IOException, InterruptedException {
        return HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, "Fern")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theManagementPortIsOffByDefault() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory")) {
            assertFalse(jar.outputSoFar().contains("management"), jar.outputSoFar());
            assertEquals(404, get(jar.uri("/metrics")).statusCode());
            assertEquals(200, get(jar.uri("/health/live")).statusCode());
            assertEquals(200, get(jar.uri("/health/ready")).statusCode());
        }
    }

    @Test
    void theManagementPortServesMetricsAndProbesWithoutAToken() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_MANAGEMENT_PORT", "0"),
                "--store", "memory")) {
            assertEquals(200, create(jar, 1).statusCode());
            assertEquals(200, get(jar.managementUri("/health/live")).statusCode());
            assertEquals(200, get(jar.managementUri("/health/ready")).statusCode());
            var metrics = get(jar.managementUri("/metrics"));
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
            for (String series : new String[] {
                "http_server_requests_seconds_count{method=\"POST\",route=\"/plants\",status=\"200\"} 1",
                "plantstore_store_operations_seconds_count{operation=\"create\",outcome=\"created\"} 1",
                "jvm_memory_used_bytes{", "jvm_gc_", "jvm_threads_live_threads ", "jetty_threads_busy ",
                "jetty_connections_current_connections{"}) {
                assertTrue(metrics.body().contains(series), () -> series + " in\n" + metrics.body());
            }
            assertEquals(404, get(jar.uri("/metrics")).statusCode(), "never on the API port");
        }
    }

    @Test
    void aDatabaseStoresGroupCommitsAreMeasured() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "sqlite:plants.db",
                "--management-port", "0")) {
            assertEquals(200, create(jar, 1).statusCode());
            assertEquals(200, create(jar, 2).statusCode());
            // The store tells the listener after answering: poll until both commits are in.
            String[] scraped = {""};
            Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> {
                scraped[0] = get(jar.managementUri("/metrics")).body();
                return scraped[0].contains("plantstore_store_commit_writes_count 2");
            });
            String metrics = scraped[0];
            for (String series : new String[] {"plantstore_store_commit_writes_count 2",
                "plantstore_store_commit_writes_sum 2.0", "plantstore_store_commit_seconds_count 2",
                "plantstore_store_commit_writes_bucket{le=\"1.0\"} 2"}) {
                assertTrue(metrics.contains(series), () -> series + " in\n" + metrics);
            }
        }
    }

    @Test
    void theAccessLineCarriesTheRequestIdAndThePrincipal() throws Exception {
        String output;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory")) {
            var response = HTTP.send(HttpRequest.newBuilder(jar.uri("/plants/5")).header("X-Request-Id", "find-me-5")
                    .header("Authorization", "Bearer " + TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("find-me-5", response.headers().firstValue("X-Request-Id").orElseThrow());
            output = jar.stopAndCollectOutput();
        }
        assertTrue(output.lines().anyMatch(line -> line.matches(
                "\\S+ INFO \\[find-me-5 token-1] access - 127\\.0\\.0\\.1 DELETE /plants/5 404 \\d+\\.\\dms")), output);
    }

    /**
     * The operations page's command for the text log finds every line of a request, whether its brackets hold the id
     * alone or the id and the caller it admitted, and no line of a request whose id merely begins the same.
     */
    @Test
    void theOperationsPagesGrepFindsARequestsLinesAdmittedOrNot() throws Exception {
        String output;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory")) {
            for (var request : List.of(Map.entry("find-me", TOKEN), Map.entry("find-me-too", TOKEN),
                    Map.entry("find-me-anonymous", ""), Map.entry("find-me-anonymous-too", ""))) {
                var delete = HttpRequest.newBuilder(jar.uri("/plants/5")).header("X-Request-Id", request.getKey());
                if (!request.getValue().isEmpty()) {
                    delete.header("Authorization", "Bearer " + request.getValue());
                }
                HTTP.send(delete.DELETE().build(), HttpResponse.BodyHandlers.discarding());
            }
            output = jar.stopAndCollectOutput();
        }
        Files.writeString(dir.resolve("plantstore.log"), output);

        assertEquals(List.of("find-me token-1] access - 127.0.0.1 DELETE /plants/5 404"), grepRecipe("find-me"),
                output);
        assertEquals(List.of("find-me-anonymous] access - 127.0.0.1 DELETE /plants/5 401"),
                grepRecipe("find-me-anonymous"), output);
    }

    /** The lines the operations page's text-log command prints for {@code id}, from the bracket to the status. */
    private List<String> grepRecipe(String id) throws Exception {
        String command = Files.readAllLines(Path.of("..", "docs", "operations.md")).stream()
                .filter(line -> line.startsWith("grep ") && line.endsWith("# --log-format text")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/operations.md has no grep command for the text log"))
                .replace(OPERATIONS_PAGE_ID, id);
        Process grep = new ProcessBuilder("sh", "-c", command).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        String found = new String(grep.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(grep.waitFor(10, TimeUnit.SECONDS), command);
        assertEquals(0, grep.exitValue(), command + ": " + found);
        return found.lines().map(line -> line.replaceFirst("^\\S+ INFO \\[", "").replaceFirst(" [\\d.]+ms$", ""))
                .toList();
    }

    /**
     * A request the server refuses by design (a Host not the management port's own, a method override) is an answer
     * the client gets, not a fault of the server: at most an access line, never a warning with an exception.
     */
    @Test
    void anExpectedRefusalLogsNoWarning() throws Exception {
        String output;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory",
                "--management-port", "0")) {
            URI management = jar.managementUri("/metrics");
            try (var socket = new Socket(management.getHost(), management.getPort())) {
                socket.getOutputStream().write(("GET /metrics HTTP/1.1\r\nHost: rebound.example\r\n"
                        + "X-Request-Id: refused-host\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                String response = Sockets.readUntilClosed(socket, Duration.ofSeconds(10));
                assertTrue(response.startsWith("HTTP/1.1 421 "), response);
            }
            var overridden = HTTP.send(
                    PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(1, "Fern"))
                            .header("X-HTTP-Method-Override", "DELETE")
                            .header("X-Request-Id", "refused-override").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, overridden.statusCode(), overridden.body());
            output = jar.stopAndCollectOutput();
        }
        assertTrue(output.lines().anyMatch(line -> line.matches(
                "\\S+ INFO \\[refused-override] access - 127\\.0\\.0\\.1 POST /plants 400 \\d+\\.\\dms")),
                output);
        assertFalse(output.contains(" WARN "), output);
        assertFalse(output.contains("ApiProblem"), output);
    }

    @Test
    void jsonLogsAreOneObjectPerLineWithTheRequestsFields() throws Exception {
        String output;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_LOG_FORMAT", "json"),
                "--store", "memory")) {
            HTTP.send(HttpRequest.newBuilder(jar.uri("/plants/5")).header("X-Request-Id", "json-5")
                    .header("Authorization", "Bearer " + TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofString());
            output = jar.stopAndCollectOutput();
        }
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode access = null;
        for (String line : output.lines().toList()) {
            var json = mapper.readTree(line);
            assertTrue(json.isObject(), line);
            for (String field : new String[] {"time", "level", "logger", "message"}) {
                assertTrue(json.hasNonNull(field), () -> field + " in " + line);
            }
            if ("json-5".equals(json.path("requestId").textValue())) {
                access = json;
            }
        }
        assertTrue(access != null, output);
        assertEquals("dev.plantstore.access", access.get("logger").textValue());
        assertEquals("DELETE", access.get("method").textValue());
        assertEquals("127.0.0.1", access.get("client").textValue());
        assertEquals("/plants/{id}", access.get("route").textValue());
        assertEquals(404, access.get("status").intValue());
        assertTrue(access.get("durationMs").isNumber(), access.toString());
    }

    @Test
    void startUpNamesTheStoreAndWhatItPromises() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory")) {
            assertTrue(jar.outputSoFar().contains("\nstore memory (not durable: plants are lost on exit)\n")
                    || jar.outputSoFar().startsWith("store memory (not durable: plants are lost on exit)\n"),
                    jar.outputSoFar());
        }
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "sqlite:plants.db")) {
            assertTrue(jar.outputSoFar().lines().anyMatch("store sqlite:plants.db (durable)"::equals),
                    jar.outputSoFar());
        }
        String postgres = System.getenv("PLANTSTORE_TEST_POSTGRES_URL");
        if (postgres != null) {
            try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", postgres)) {
                String expected = "store " + new StoreSpec.Postgres(postgres).redacted() + " (durable)";
                assertTrue(jar.outputSoFar().lines().anyMatch(expected::equals), jar.outputSoFar());
                assertFalse(jar.outputSoFar().contains("user="), jar.outputSoFar());
            }
        }
    }

    @Test
    @Tag("alone")
    void sigtermTurnsReadinessDownAndKeepsServingForTheDrainPeriodThenStops() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory",
                "--management-port", "0", "--drain-seconds", "3")) {
            URI managementReady = jar.managementUri("/health/ready");
            long signalled = System.nanoTime();
            jar.process().destroy();
            int ready = Poll.until(Duration.ofSeconds(3), Duration.ofMillis(10), () -> {
                int status = get(jar.uri("/health/ready")).statusCode();
                return status == 200 ? Optional.<Integer>empty() : Optional.of(status);
            }).orElse(200);
            assertEquals(503, ready, "the API port's readiness goes DOWN at once");
            assertEquals(503, get(managementReady).statusCode(), "and the management port's");
            assertEquals(200, get(jar.uri("/health/live")).statusCode(), "still live");
            assertEquals(200, create(jar, 7).statusCode(), "still serving while draining");
            assertTrue(jar.process().waitFor(RunningJar.STOP_LIMIT.toSeconds(), TimeUnit.SECONDS),
                    "stops after the drain");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
            assertTrue(tookMillis >= 3_000, "stopped only after the drain period: " + tookMillis + " ms");
            assertEquals(0, jar.process().exitValue());
            assertTrue(jar.outputSoFar().contains("plantstore stopped"), jar.outputSoFar());
        }
    }

    @Test
    void aCtrlCDrainsAndStopsAsSigtermDoes() throws Exception {
        try (var jar = RunningJar.startAsAtATerminal(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory",
                "--drain-seconds", "2")) {
            long signalled = System.nanoTime();
            jar.interrupt();
            assertTrue(jar.process().waitFor(RunningJar.STOP_LIMIT.toSeconds(), TimeUnit.SECONDS),
                    "stops after the drain");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
            assertTrue(tookMillis >= 2_000, "stopped only after the drain period: " + tookMillis + " ms");
            assertEquals(0, jar.process().exitValue(), jar.outputSoFar());
            assertTrue(jar.outputSoFar().contains("plantstore stopped"), jar.outputSoFar());
        }
    }

    @Test
    void aSecondCtrlCStopsAtOnce() throws Exception {
        try (var jar = RunningJar.startAsAtATerminal(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory",
                "--drain-seconds", "60")) {
            jar.interrupt();
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(10),
                    () -> jar.outputSoFar().contains("plantstore draining")), jar.outputSoFar());
            long second = System.nanoTime();
            jar.interrupt();
            // Half the drain: as far from a stop at once as from one that drained, whatever the machine's pace.
            assertTrue(jar.process().waitFor(30, TimeUnit.SECONDS), "stops at once, not after the 60 s drain");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - second);
            assertEquals(130, jar.process().exitValue(), jar.outputSoFar());
            assertTrue(jar.outputSoFar().contains("plantstore stopped at once (second interrupt)"),
                    tookMillis + " ms; " + jar.outputSoFar());
        }
    }
}
