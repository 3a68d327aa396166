package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One trace from the caller through the commit to the receiver's webhook, as a real Zipkin server shows it, exported
 * by the jar as the standard OTEL_* variables configure it; and, unconfigured, no SDK at all.
 *
 * <p>Zipkin because it is the one tracing backend that starts from the registries here (Maven Central) with Java
 * alone, and has an API to read a trace back. Its OTLP module is not published there, so the jar sends to it with the
 * SDK's Zipkin exporter ({@code OTEL_TRACES_EXPORTER=zipkin}); the default, OTLP over HTTP, is checked against an HTTP
 * server of the test's that takes the real export and finds the trace in it.
 */
@Tag("heavy")
class TracingIT {

    private static final String TOKEN = "tracing-token";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN_ID = "00f067aa0ba902b7";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Long enough for a lease of an instance that was killed (30 s) to run out, and the retries after it. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(100);
    private static final String SPAN_PROCESSOR_THREAD = "BatchSpanProcessor_WorkerThread";

    @TempDir
    Path dir;

    private WebhookReceiver receiver;
    private final List<AutoCloseable> started = new ArrayList<>();

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : started) {
            closeable.close();
        }
        receiver.close();
    }

    /** A Zipkin server, storing in memory, on a free port; its base URI once it is up. */
    private URI startZipkin() throws Exception {
        String jar = System.getProperty("plantstore.zipkin.jar");
        assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "the Zipkin server's jar is at " + jar);
        int port;
        try (var free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        var builder = new ProcessBuilder(JarProcess.command(List.of("-Xmx256m"), Path.of(jar), List.of()));
        builder.environment().put("QUERY_PORT", Integer.toString(port));
        builder.environment().put("STORAGE_TYPE", "mem");
        var zipkin = JarProcess.start(builder, dir.resolve("zipkin.log"));
        started.add(zipkin);
        URI base = URI.create("http://127.0.0.1:" + port);
        zipkin.awaitReady(Duration.ofSeconds(90), Duration.ofMillis(200), () -> {
            try {
                return HTTP.send(HttpRequest.newBuilder(base.resolve("/health")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200 ? Optional.of(true)
                        : Optional.empty();
            } catch (IOException notYet) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        });
        return base;
    }

    private Map<String, String> tracedTo(URI zipkin) {
        return Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                "PLANTSTORE_WEBHOOK_URL", receiver.url().toString(),
                "OTEL_TRACES_EXPORTER", "zipkin",
                "OTEL_EXPORTER_ZIPKIN_ENDPOINT", zipkin.resolve("/api/v2/spans").toString(),
                "OTEL_BSP_SCHEDULE_DELAY", "100");
    }

    private static int create(RunningJar jar, long id, String traceparent) throws Exception {
        return HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, "Fern", null))
                .header("traceparent", traceparent).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The trace's spans as Zipkin's API returns them, once it holds at least {@code count}. */
    private static List<JsonNode> traceOnceItHas(URI zipkin, String traceId, int count) throws Exception {
        List<JsonNode> spans = new ArrayList<>();
        boolean complete = Poll.until(WAIT, LOOK, () -> {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(zipkin.resolve("/api/v2/trace/" + traceId))
                    .build(), HttpResponse.BodyHandlers.ofString());
            spans.clear();
            if (answer.statusCode() == 200) {
                JSON.readTree(answer.body()).forEach(spans::add);
            }
            return spans.size() >= count;
        });
        assertTrue(complete, "the trace has " + count + " spans: " + spans);
        return spans;
    }

    private static JsonNode named(List<JsonNode> spans, String kind, String name) {
        return spans.stream().filter(span -> kind.equals(span.path("kind").asText(""))
                        && name.equals(span.path("name").asText()))
                .findFirst().orElseThrow(() -> new AssertionError("a " + kind + " span " + name + " in " + spans));
    }

    @Test
    void aCreateAndItsWebhookAreOneTraceInZipkinAndTheReceiverContinuesIt() throws Exception {
        URI zipkin = startZipkin();
        try (var jar = RunningJar.start(dir, tracedTo(zipkin))) {
            assertTrue(jar.outputSoFar().contains("traces exported as the OTEL_* variables say"), jar.outputSoFar());
            assertEquals(200, create(jar, 1, "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));
            List<JsonNode> spans = traceOnceItHas(zipkin, TRACE_ID, 3);
            JsonNode request = named(spans, "SERVER", "post /plants");
            JsonNode write = spans.stream().filter(span -> "store create".equals(span.path("name").asText()))
                    .findFirst().orElseThrow(() -> new AssertionError("the write's span in " + spans));
            JsonNode attempt = named(spans, "CLIENT", "post");
            assertEquals(CALLER_SPAN_ID, request.path("parentId").asText());
            assertEquals(request.path("id").asText(), write.path("parentId").asText());
            assertEquals(write.path("id").asText(), attempt.path("parentId").asText());
            assertEquals("plantstore", request.path("localEndpoint").path("serviceName").asText());
            assertEquals("created", request.path("tags").path("plantstore.outcome").asText());
            assertEquals("200", attempt.path("tags").path("http.response.status_code").asText());
            assertEquals("1", attempt.path("tags").path("plantstore.webhook.attempt").asText());
            String traceparent = receiver.accepted().get(0).traceparent();
            assertEquals("00-" + TRACE_ID + "-" + attempt.path("id").asText() + "-01", traceparent);
        }
    }

    @Test
    void anEventDeliveredAfterAKillAndARestartStillJoinsTheCreatesTrace() throws Exception {
        URI zipkin = startZipkin();
        receiver.answer(503);
        try (var jar = RunningJar.start(dir, tracedTo(zipkin))) {
            assertEquals(200, create(jar, 1, "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));
            // The request's spans, and the refused attempt's, exported before the kill, which would lose them.
            traceOnceItHas(zipkin, TRACE_ID, 3);
            jar.process().destroyForcibly().waitFor();
        }
        receiver.answer(200);
        try (var restarted = RunningJar.start(dir, tracedTo(zipkin))) {
            assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() == 1),
                    () -> "delivered after the restart\n" + restarted.outputSoFar());
            String traceparent = receiver.accepted().get(0).traceparent();
            assertTrue(traceparent.startsWith("00-" + TRACE_ID + "-"), traceparent);
            String attemptSpanId = traceparent.substring(36, 52);
            List<JsonNode> spans = traceOnceItHas(zipkin, TRACE_ID, 4);
            assertTrue(spans.stream().anyMatch(span -> attemptSpanId.equals(span.path("id").asText())
                    && "CLIENT".equals(span.path("kind").asText())),
                    "the restarted instance's attempt is in the create's trace: " + spans);
        }
    }

    @Test
    void aMalformedTraceparentIsIgnored() throws Exception {
        URI zipkin = startZipkin();
        try (var jar = RunningJar.start(dir, tracedTo(zipkin))) {
            assertEquals(200, create(jar, 1, "00-" + TRACE_ID + "-zz-01"));
            assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() == 1), "delivered");
            String traceparent = receiver.accepted().get(0).traceparent();
            assertFalse(traceparent.contains(TRACE_ID), "a trace of its own: " + traceparent);
            assertFalse(jar.outputSoFar().contains("-zz-"), "never logged verbatim:\n" + jar.outputSoFar());
        }
    }

    /** An OTLP/HTTP collector of the test's, on a free port, noting each export's body and content type. */
    private record Collector(HttpServer server, List<byte[]> exports, List<String> contentTypes) {

        static Collector start(List<AutoCloseable> started) throws IOException {
            var collector = new Collector(
                    HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
                    new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
            collector.server.createContext("/v1/traces", exchange -> {
                collector.contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
                collector.exports.add(exchange.getRequestBody().readAllBytes());
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            collector.server.start();
            started.add(() -> collector.server.stop(0));
            return collector;
        }

        Map<String, String> tracedHere(String... more) {
            var env = new HashMap<>(Map.of("PLANTSTORE_TOKENS", TOKEN, "OTEL_EXPORTER_OTLP_ENDPOINT",
                    "http://127.0.0.1:" + server.getAddress().getPort(), "OTEL_BSP_SCHEDULE_DELAY", "100"));
            for (int i = 0; i < more.length; i += 2) {
                env.put(more[i], more[i + 1]);
            }
            return env;
        }

        boolean exported(byte[] bytes) {
            return exports.stream().anyMatch(body -> contains(body, bytes));
        }
    }

    @Test
    void overOtlpByDefaultTheSpansReachTheCollector() throws Exception {
        var collector = Collector.start(started);
        try (var jar = RunningJar.start(dir, collector.tracedHere())) {
            assertEquals(200, create(jar, 1, "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));
            byte[] traceId = HexFormat.of().parseHex(TRACE_ID);
            assertTrue(Poll.until(WAIT, LOOK, () -> collector.exported(traceId)), "an OTLP export holds the trace");
            assertEquals("application/x-protobuf", collector.contentTypes().get(0));
        }
    }

    @Test
    void theLastRequestsSpansAreExportedWhenTheServerStops() throws Exception {
        var collector = Collector.start(started);
        // An export schedule no test waits for: only the stop's flush can send the spans.
        try (var jar = RunningJar.start(dir, collector.tracedHere("OTEL_BSP_SCHEDULE_DELAY", "600000"))) {
            assertEquals(200, create(jar, 1, "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));
            jar.stopAndCollectOutput();
        }
        assertTrue(collector.exported(HexFormat.of().parseHex(TRACE_ID)), "the stop exported the create's trace");
    }

    private static int probe(RunningJar jar) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(jar.uri("/health/live")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void theHealthProbesAreTracedOnlyWhenAsked() throws Exception {
        byte[] probeSpan = "GET /health/live".getBytes(StandardCharsets.UTF_8);
        byte[] createSpan = "POST /plants".getBytes(StandardCharsets.UTF_8);
        var untraced = Collector.start(started);
        try (var jar = RunningJar.start(dir, untraced.tracedHere())) {
            assertEquals(200, probe(jar));
            // The access line is written once the exchange is over, after its span (if any) has ended: a span of
            // the probe's would be exported no later than the create's.
            assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains(" GET /health/live 200 ")),
                    jar::outputSoFar);
            assertEquals(200, create(jar, 1, "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));
            assertTrue(Poll.until(WAIT, LOOK, () -> untraced.exported(createSpan)), "the create's span is exported");
            assertFalse(untraced.exported(probeSpan), "the probe's is not");
        }

        var traced = Collector.start(started);
        try (var jar = RunningJar.start(dir, traced.tracedHere("PLANTSTORE_TRACE_HEALTH", "on"))) {
            assertEquals(200, probe(jar));
            assertTrue(Poll.until(WAIT, LOOK, () -> traced.exported(probeSpan)), "the probe's span is exported");
        }
    }

    @Test
    void withNothingConfiguredNoSdkRuns() throws Exception {
        URI zipkin = startZipkin();
        try (var traced = RunningJar.start(dir, tracedTo(zipkin))) {
            assertTrue(threadDump(traced).contains(SPAN_PROCESSOR_THREAD), "a configured jar exports");
        }
        try (var plain = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN))) {
            assertEquals(200, create(plain, 2, "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));
            assertFalse(plain.outputSoFar().contains("traces exported"), plain.outputSoFar());
            assertFalse(threadDump(plain).contains(SPAN_PROCESSOR_THREAD), "no exporter runs");
            assertNotEquals(0, plain.port());
        }
    }

    private static String threadDump(RunningJar jar) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(jar.process().pid()), "Thread.print").redirectErrorStream(true).start();
        String dump = new String(jcmd.getInputStream().readAllBytes());
        assertEquals(0, jcmd.waitFor(), dump);
        return dump;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            int j = 0;
            while (j < needle.length && haystack[i + j] == needle[j]) {
                j++;
            }
            if (j == needle.length) {
                return true;
            }
        }
        return false;
    }
}
