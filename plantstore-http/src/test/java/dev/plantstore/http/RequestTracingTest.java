package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.TOKEN;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.post;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TraceContext;
import dev.plantstore.testkit.Poll;
import io.javalin.Javalin;
import io.javalin.testtools.JavalinTest;
import io.javalin.testtools.Response;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A request continues its caller's W3C trace in a server span, with the store's write under it. */
class RequestTracingTest {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String CALLER_SPAN_ID = "b7ad6b7169203331";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk tracing = sdkSampling(Sampler.parentBased(Sampler.alwaysOn()));
    /** What each write of the store was handed as its trace, by plant id. */
    private final Map<Long, Optional<TraceContext>> writeTraces = new ConcurrentHashMap<>();

    private OpenTelemetrySdk sdkSampling(Sampler sampler) {
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(sampler)
                        .addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    @AfterEach
    void close() {
        tracing.close();
    }

    /** A store in memory that notes the trace each write was given. */
    private PlantStore notingTraces() {
        PlantStore memory = PlantStores.inMemory();
        return new PlantStore() {
            @Override
            public CreateResult create(NewPlant plant) {
                writeTraces.put(plant.id(), Optional.empty());
                return memory.create(plant);
            }

            @Override
            public CreateResult create(NewPlant plant, TraceContext trace) {
                writeTraces.put(plant.id(), Optional.of(trace));
                return memory.create(plant);
            }

            @Override
            public boolean delete(long id) {
                return memory.delete(id);
            }

            @Override
            public Optional<Plant> find(long id) {
                return memory.find(id);
            }
        };
    }

    private static void create(io.javalin.testtools.HttpClient client, String json, String... headers) {
        post(client, BodyPublishers.ofString(json), request -> {
            request.header("Authorization", BEARER).header("Content-Type", "application/json");
            for (int i = 0; i < headers.length; i += 2) {
                request.header(headers[i], headers[i + 1]);
            }
            return request;
        });
    }

    private Map<String, SpanData> spansByName(int count) throws InterruptedException {
        assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10),
                () -> exported.getFinishedSpanItems().size() >= count), "the spans ended");
        return exported.getFinishedSpanItems().stream()
                .collect(Collectors.toMap(SpanData::getName, Function.identity(), (a, b) -> b));
    }

    @Test
    void aCreateContinuesTheCallersTraceInAServerSpanNamedByItsRoute() throws Exception {
        withServer(TestApi.api(notingTraces()).withTracing(tracing),
                (server, client) -> create(client, "{\"id\":1,\"name\":\"Fern\"}", "traceparent", TRACEPARENT));
        SpanData request = spansByName(2).get("POST /plants");
        assertEquals(SpanKind.SERVER, request.getKind());
        assertEquals(TRACE_ID, request.getTraceId());
        assertEquals(CALLER_SPAN_ID, request.getParentSpanId());
        assertEquals(200L, request.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals("/plants", request.getAttributes().get(AttributeKey.stringKey("http.route")));
        assertEquals("created", request.getAttributes().get(AttributeKey.stringKey("plantstore.outcome")));
    }

    @Test
    void theWriteIsASpanUnderTheRequestsAndItsContextGoesToTheStore() throws Exception {
        withServer(TestApi.api(notingTraces()).withTracing(tracing),
                (server, client) -> create(client, "{\"id\":1,\"name\":\"Fern\"}", "traceparent", TRACEPARENT));
        Map<String, SpanData> spans = spansByName(2);
        SpanData write = spans.get("store create");
        assertEquals(spans.get("POST /plants").getSpanId(), write.getParentSpanId());
        assertEquals("created", write.getAttributes().get(AttributeKey.stringKey("plantstore.outcome")));
        assertEquals(Optional.of(new TraceContext("00-" + TRACE_ID + "-" + write.getSpanId() + "-01",
                Optional.empty())), writeTraces.get(1L), "the event's deliveries will show under the write");
    }

    @Test
    void theCallersTracestateGoesWithTheWrite() throws Exception {
        withServer(TestApi.api(notingTraces()).withTracing(tracing), (server, client) -> create(client,
                "{\"id\":1,\"name\":\"Fern\"}", "traceparent", TRACEPARENT, "tracestate", "rojo=00f067aa0ba902b7"));
        assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10), () -> writeTraces.containsKey(1L)),
                "written");
        assertEquals(Optional.of("rojo=00f067aa0ba902b7"), writeTraces.get(1L).orElseThrow().tracestate());
    }

    @Test
    void eachOutcomeIsOnTheSpans() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing), (server, client) -> {
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            create(client, "{\"id\":1,\"name\":\"Moss\"}");
            delete(client, "1");
            delete(client, "1");
        });
        assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10),
                () -> exported.getFinishedSpanItems().size() == 10), "the spans ended");
        // A server span ends when its exchange completes, after the client has the answer; over HTTP/2 the next
        // request's stream may complete first, so the outcomes are compared in no order.
        List<String> outcomes = exported.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.SERVER)
                .map(span -> span.getName() + " " + span.getAttributes()
                        .get(AttributeKey.stringKey("plantstore.outcome")))
                .sorted()
                .toList();
        assertEquals(Stream.of("POST /plants created", "POST /plants already_stored", "POST /plants duplicate",
                "DELETE /plants/{id} deleted", "DELETE /plants/{id} absent").sorted().toList(), outcomes);
    }

    @Test
    void aMalformedTraceparentStartsANewTraceAndIsNoError() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing), (server, client) ->
                create(client, "{\"id\":1,\"name\":\"Fern\"}", "traceparent", "00-zz-" + CALLER_SPAN_ID + "-01"));
        SpanData request = spansByName(2).get("POST /plants");
        assertFalse(request.getParentSpanContext().isValid());
        assertNotEquals(TRACE_ID, request.getTraceId());
        assertEquals(200L, request.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
    }

    @Test
    void theCallersUnsampledFlagIsFollowed() throws Exception {
        withServer(TestApi.api(notingTraces()).withTracing(tracing), (server, client) ->
                create(client, "{\"id\":1,\"name\":\"Fern\"}", "traceparent", "00-" + TRACE_ID + "-"
                        + CALLER_SPAN_ID + "-00"));
        assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10), () -> writeTraces.containsKey(1L)),
                "written");
        assertEquals(List.of(), exported.getFinishedSpanItems(), "nothing recorded");
        String kept = writeTraces.get(1L).orElseThrow().traceparent();
        assertTrue(kept.startsWith("00-" + TRACE_ID + "-") && kept.endsWith("-00"),
                "the write keeps the trace, unsampled: " + kept);
    }

    @Test
    void theSpanNamesTheCallerAndNeverHoldsTheToken() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing),
                (server, client) -> create(client, "{\"id\":1,\"name\":\"Fern\"}"));
        SpanData request = spansByName(2).get("POST /plants");
        assertTrue(request.getAttributes().get(AttributeKey.stringKey("enduser.id")) != null, request.toString());
        for (SpanData span : exported.getFinishedSpanItems()) {
            assertFalse(span.toString().contains(TOKEN), span.toString());
        }
    }

    @Test
    void aRefusedRequestIsASpanTooWithItsStatus() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing), (server, client) -> {
            client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                    .header("Authorization", "Bearer wrong"));
            // The span ends once the server has finished the exchange, which may be just after the client has read
            // the answer: waited for while the server runs, as a server stopped first would end it as failed.
            assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10),
                    () -> exported.getFinishedSpanItems().size() == 1), "the span ended");
        });
        SpanData request = exported.getFinishedSpanItems().get(0);
        assertEquals(401L, request.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals(StatusCode.UNSET, request.getStatus().getStatusCode(), "a client's error is not the server's");
    }

    /** What a load balancer asks: each health route, one of them with a trailing slash, which Javalin routes too. */
    private static void probe(io.javalin.testtools.HttpClient client) {
        for (String path : List.of("/health", "/health/live", "/health/ready", "/health/ready/")) {
            assertEquals(200, client.get(path).code(), path);
        }
    }

    @Test
    void theHealthProbesAreNotTracedByDefault() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing), (server, client) -> {
            probe(client);
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
        });
        // The server has stopped, which ends any span still open: every span there will be is exported.
        assertEquals(Set.of("POST /plants", "store create"), exported.getFinishedSpanItems().stream()
                .map(SpanData::getName).collect(Collectors.toSet()));
    }

    @Test
    void theHealthProbesAreTracedWhenAsked() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing).withHealthTraced(true),
                (server, client) -> {
                    probe(client);
                    assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10),
                            () -> exported.getFinishedSpanItems().size() == 4), "the spans ended");
                });
        assertEquals(List.of("/health", "/health/live", "/health/ready", "/health/ready"),
                exported.getFinishedSpanItems().stream()
                        .map(span -> span.getAttributes().get(AttributeKey.stringKey("http.route"))).sorted()
                        .toList());
    }

    @Test
    void aRefusedOrUnauthenticatedRequestStartsATraceOfItsOwn() throws Exception {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing), (server, client) -> {
            client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                    .header("Authorization", "Bearer wrong").header("traceparent", TRACEPARENT));
            post(client, BodyPublishers.ofString("{\"id\":1,\"name\":\"Fern\"}"), request -> request
                    .header("Content-Type", "application/json").header("traceparent", TRACEPARENT)
                    .header("tracestate", "rojo=00f067aa0ba902b7"));
            client.request("/openapi.json", request -> request.header("traceparent", TRACEPARENT));
            assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10),
                    () -> exported.getFinishedSpanItems().size() == 3), "the spans ended");
        });
        for (SpanData span : exported.getFinishedSpanItems()) {
            assertNotEquals(TRACE_ID, span.getTraceId(), span.toString());
            assertFalse(span.getParentSpanContext().isValid(), span.toString());
            assertTrue(span.getSpanContext().getTraceState().isEmpty(), span.toString());
            assertTrue(span.getLinks().isEmpty(), span.toString());
        }
    }

    @Test
    void theCallersSampledFlagDecidesOnlyForAnAdmittedCaller() throws Exception {
        // Closed with the other at the end: closing it would empty the exporter they share.
        OpenTelemetrySdk sampledByCallersOnly = sdkSampling(Sampler.parentBased(Sampler.alwaysOff()));
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(sampledByCallersOnly), (server, client) -> {
            client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                    .header("Authorization", "Bearer wrong").header("traceparent", TRACEPARENT));
            create(client, "{\"id\":1,\"name\":\"Fern\"}", "traceparent", TRACEPARENT);
            assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(10),
                    () -> exported.getFinishedSpanItems().size() >= 2), "the create's spans ended");
        });
        // The server has stopped, which ends any span still open: every span there will be is exported.
        List<SpanData> spans = exported.getFinishedSpanItems();
        sampledByCallersOnly.close();
        assertEquals(List.of("POST /plants", "store create"), spans.stream().map(SpanData::getName).sorted().toList());
        assertTrue(spans.stream().allMatch(span -> span.getTraceId().equals(TRACE_ID)), spans.toString());
    }

    @Test
    void anAdmittedDeleteContinuesTheCallersTrace() throws Exception {
        withServer(TestApi.api(notingTraces()).withTracing(tracing), (server, client) -> {
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                    .header("Authorization", BEARER).header("traceparent", TRACEPARENT));
        });
        SpanData request = spansByName(4).get("DELETE /plants/{id}");
        assertEquals(TRACE_ID, request.getTraceId());
        assertEquals(CALLER_SPAN_ID, request.getParentSpanId());
    }

    private static Response deleteWith(io.javalin.testtools.HttpClient client, String authorization) {
        return client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                .header("Authorization", authorization).header("traceparent", TRACEPARENT));
    }

    /** Two refused tokens a minute are let through; were the span's question counted too, the second would be 429. */
    private static void refusedTokensCountOnce(io.javalin.testtools.HttpClient client) {
        assertEquals(401, deleteWith(client, "Bearer wrong").code());
        assertEquals(401, deleteWith(client, "Bearer wrong").code());
        assertEquals(429, deleteWith(client, BEARER).code());
    }

    @Test
    void aRefusedTokenCountsOnceThoughTheSpanAsksFirst() {
        withServer(TestApi.api(PlantStores.inMemory()).withTracing(tracing).withAuthFailureLimit(2),
                (server, client) -> refusedTokensCountOnce(client));
    }

    @Test
    void mountedOnAnotherApplicationTheSpanAndTheGateShareTheDecision() throws Exception {
        PlantStoreApi api = TestApi.api(PlantStores.inMemory()).withTracing(tracing).withAuthFailureLimit(2);
        JavalinTest.test(Javalin.create(api::mount), (server, client) -> {
            assertEquals(404, deleteWith(client, BEARER).code());
            refusedTokensCountOnce(client);
        });
        SpanData admitted = spansByName(2).get("DELETE /plants/{id}");
        assertEquals(TRACE_ID, admitted.getTraceId());
        assertEquals(CALLER_SPAN_ID, admitted.getParentSpanId());
    }
}
