package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.WebhookSecrets;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each attempt a client span in its write's trace, and the request carrying the trace to a real receiver. */
class AttemptTracingTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(20);
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SERVER_SPAN_ID = "00f067aa0ba902b7";
    private static final TraceContext WRITE = new TraceContext("00-" + TRACE_ID + "-" + SERVER_SPAN_ID + "-01",
            Optional.of("plantstore=t61rcWkgMzE"));

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk tracing = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported))
                    .build())
            .build();
    private WebhookReceiver receiver;
    private PlantStore store;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        receiver.close();
        tracing.close();
    }

    private PlantStore storeTracedBy(OpenTelemetry openTelemetry) {
        URI url = URI.create("http://user:secret@127.0.0.1:" + receiver.url().getPort() + "/hook?token=secret");
        var outbox = new MemoryOutbox(List.of(DeliverySettings.receiverKey(url)));
        var settings = new DeliverySettings(List.of(url),
                WebhookSecrets.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), WebhookListener.NONE,
                Duration.ofHours(72), Duration.ofMillis(20));
        var delivery = WebhookDelivery.start(outbox, settings,
                new WebhookHttpClient(DeliveryLimits.IN_FLIGHT, DeliveryLimits.ATTEMPT_DEADLINE,
                        new SslContextFactory.Client()),
                openTelemetry);
        store = new DeliveringPlantStore(new InMemoryPlantStore(outbox), delivery);
        return store;
    }

    private List<SpanData> spansWhenAccepted(int attempts) throws InterruptedException {
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() == 1
                && exported.getFinishedSpanItems().size() == attempts), "the event was delivered, its attempts ended");
        return exported.getFinishedSpanItems();
    }

    @Test
    void anAttemptIsAClientSpanInTheWritesTraceAndItsRequestCarriesThatTrace() throws Exception {
        storeTracedBy(tracing).create(new NewPlant(1, "Monstera"), WRITE);
        SpanData attempt = spansWhenAccepted(1).get(0);
        assertEquals(SpanKind.CLIENT, attempt.getKind());
        assertEquals("POST", attempt.getName());
        assertEquals(TRACE_ID, attempt.getTraceId());
        assertEquals(SERVER_SPAN_ID, attempt.getParentSpanId());
        assertEquals(200L, attempt.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertEquals(1L, attempt.getAttributes().get(AttributeKey.longKey("plantstore.webhook.attempt")));
        var received = receiver.received().get(0);
        assertEquals("00-" + TRACE_ID + "-" + attempt.getSpanId() + "-01", received.traceparent(),
                "the receiver continues the trace under the attempt's span");
        assertEquals("plantstore=t61rcWkgMzE", received.tracestate());
    }

    @Test
    void eachRetryIsASpanOfItsOwnInTheSameTraceAndAFailedOneIsAnError() throws Exception {
        receiver.answer(500);
        storeTracedBy(tracing).create(new NewPlant(1, "Monstera"), WRITE);
        assertTrue(Poll.until(WAIT, LOOK, () -> !exported.getFinishedSpanItems().isEmpty()), "one attempt failed");
        receiver.answer(204);
        // Retries come 10 to 20 ms apart here, so more than one may fail before the receiver is mended: every
        // request the receiver answered is one attempt, and its span.
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() == 1
                && exported.getFinishedSpanItems().size() == receiver.received().size()),
                "the event was delivered, its attempts ended");
        List<SpanData> spans = exported.getFinishedSpanItems();
        List<WebhookReceiver.Received> requests = receiver.received();
        assertTrue(spans.size() >= 2, spans.toString());
        for (int attempt = 1; attempt <= spans.size(); attempt++) {
            SpanData span = spans.get(attempt - 1);
            int answered = requests.get(attempt - 1).answered();
            assertEquals(TRACE_ID, span.getTraceId());
            assertEquals(SERVER_SPAN_ID, span.getParentSpanId());
            assertEquals(attempt, span.getAttributes().get(AttributeKey.longKey("plantstore.webhook.attempt")));
            assertEquals(answered, span.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
            assertEquals(answered == 500 ? StatusCode.ERROR : StatusCode.UNSET, span.getStatus().getStatusCode());
        }
        assertEquals(204, requests.get(requests.size() - 1).answered(), "the last attempt delivered it");
    }

    @Test
    void theSpanNamesTheReceiverAsTheLogsDoWithoutItsCredentialsOrQuery() throws Exception {
        storeTracedBy(tracing).create(new NewPlant(1, "Monstera"), WRITE);
        SpanData attempt = spansWhenAccepted(1).get(0);
        String key = "http://127.0.0.1:" + receiver.url().getPort() + "/hook";
        assertEquals(key, attempt.getAttributes().get(AttributeKey.stringKey("plantstore.webhook.receiver")));
        assertEquals(key, attempt.getAttributes().get(AttributeKey.stringKey("url.full")));
        assertTrue(!attempt.toString().contains("secret"), attempt.toString());
    }

    @Test
    void withoutATracingSdkTheRequestCarriesTheWritesOwnTrace() throws Exception {
        storeTracedBy(OpenTelemetry.noop()).create(new NewPlant(1, "Monstera"), WRITE);
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() == 1), "delivered");
        assertEquals(WRITE.traceparent(), receiver.received().get(0).traceparent());
        assertEquals("plantstore=t61rcWkgMzE", receiver.received().get(0).tracestate());
    }

    @Test
    void anEventOfAnUntracedWriteStartsATraceOfItsOwnWhenTracingIsOn() throws Exception {
        storeTracedBy(tracing).create(new NewPlant(1, "Monstera"));
        SpanData attempt = spansWhenAccepted(1).get(0);
        assertEquals(false, attempt.getParentSpanContext().isValid());
        String traceparent = receiver.received().get(0).traceparent();
        assertTrue(traceparent.startsWith("00-" + attempt.getTraceId() + "-" + attempt.getSpanId() + "-"),
                traceparent);
    }

    @Test
    void anEventOfAnUntracedWriteCarriesNoTraceWithoutATracingSdk() throws Exception {
        storeTracedBy(OpenTelemetry.noop()).create(new NewPlant(1, "Monstera"));
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() == 1), "delivered");
        assertEquals("", receiver.received().get(0).traceparent());
    }
}
