package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.WebhookSecrets;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.Poll;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * Nothing an attempt throws escapes it: an exception or an error from inside the transport, or from the application's
 * tracing, fails that attempt, gives its request in flight back, and the delivery goes on; the log tells the
 * receiver's state once, without a stack trace.
 */
class FailingTransportTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final URI RECEIVER = URI.create("http://127.0.0.1:9/hook");
    /** As many as there are requests in flight: had any of them kept its request, none would be left to send. */
    private static final int THROWING = DeliveryLimits.IN_FLIGHT;
    private static final int EVENTS = 2 * DeliveryLimits.IN_FLIGHT;

    private final Set<Long> delivered = ConcurrentHashMap.newKeySet();
    private final AtomicInteger attempts = new AtomicInteger();

    @Test
    void aTransportThatThrowsOnEveryRequestInFlightStopsNoDelivery() throws Exception {
        Transport throwsThenWorks = new Transport() {
            @Override
            public void send(PlantEvent event, SignedRequest request, Ended ended) {
                int count = attempts.incrementAndGet();
                if (count <= THROWING) {
                    if (count % 2 == 0) {
                        throw new ArrayIndexOutOfBoundsException("a parser that reads past an empty head");
                    }
                    throw new StackOverflowError("a transport that fails with an error");
                }
                delivered.add(event.plantId());
                ended.ended(event, new Outcome.Answered(200));
            }

            @Override
            public void close() {
            }
        };
        String failing = deliverEveryEvent(throwsThenWorks, OpenTelemetry.noop());
        assertTrue(failing.contains("a parser that reads past an empty head") || failing.contains("StackOverflowError"),
                failing);
    }

    @Test
    void aTracingSamplerThatThrowsOnEveryRequestInFlightStopsNoDelivery() throws Exception {
        var sampled = new AtomicInteger();
        Sampler throwsThenSamples = new Sampler() {
            @Override
            public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind,
                                               Attributes attributes, List<LinkData> links) {
                if (sampled.incrementAndGet() <= THROWING) {
                    throw new IllegalStateException("a sampler whose rules are not loaded");
                }
                return SamplingResult.recordAndSample();
            }

            @Override
            public String getDescription() {
                return "throws, then samples";
            }
        };
        Transport answers = new Transport() {
            @Override
            public void send(PlantEvent event, SignedRequest request, Ended ended) {
                attempts.incrementAndGet();
                delivered.add(event.plantId());
                ended.ended(event, new Outcome.Answered(200));
            }

            @Override
            public void close() {
            }
        };
        try (var tracing = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(throwsThenSamples).build()).build()) {
            String failing = deliverEveryEvent(answers, tracing);
            assertTrue(failing.contains("a sampler whose rules are not loaded"), failing);
        }
    }

    /**
     * Records twice as many events as there are requests in flight, delivers them through {@code transport} and
     * {@code tracing}, and returns the one line that logged the receiver as failing.
     */
    private String deliverEveryEvent(Transport transport, OpenTelemetry tracing) throws Exception {
        var outbox = new MemoryOutbox(List.of(DeliverySettings.receiverKey(RECEIVER)));
        var settings = new DeliverySettings(List.of(RECEIVER), WebhookSecrets.parse(SECRET), WebhookListener.NONE,
                Duration.ofHours(72), Duration.ofMillis(1));
        var memory = new InMemoryPlantStore(outbox);
        // Recorded before the delivery starts, so that its first claim takes a whole page at once.
        for (long id = 1; id <= EVENTS; id++) {
            memory.create(new NewPlant(id, "Plant " + id));
        }
        var workerLog = CapturedLog.of(ReceiverHealth.LOG.getName());
        var delivery = WebhookDelivery.start(outbox, settings, to -> transport, tracing);
        try (var store = new DeliveringPlantStore(memory, delivery)) {
            assertTrue(Poll.until(Duration.ofSeconds(60), Duration.ofMillis(20), () -> delivered.size() == EVENTS),
                    "delivered " + delivered.size() + " of " + EVENTS + " after " + attempts.get() + " attempts");
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20),
                    () -> outbox.backlogs().counted(DeliverySettings.receiverKey(RECEIVER)).pending() == 0));
            assertEquals(EVENTS, delivered.size());
            assertTrue(store.isAvailable(), "the store never noticed");
        } finally {
            workerLog.close();
        }
        assertEquals(List.of(), workerLog.records().stream().filter(line -> line.getThrown() != null)
                .map(LogRecord::getMessage).toList(), "lines with a stack trace");
        List<String> failing = workerLog.messagesWith(": failing (");
        assertEquals(1, failing.size(), failing.toString());
        return failing.get(0);
    }
}
