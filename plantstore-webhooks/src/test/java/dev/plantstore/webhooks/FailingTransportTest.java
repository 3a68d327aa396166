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
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * Nothing an attempt throws escapes it: an exception or an error from inside the transport fails that attempt, gives
 * its request in flight back, and the delivery goes on; the log tells the receiver's state once, without a stack trace.
 */
class FailingTransportTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final URI RECEIVER = URI.create("http://127.0.0.1:9/hook");

    @Test
    void aTransportThatThrowsOnEveryRequestInFlightStopsNoDelivery() throws Exception {
        // As many as there are requests in flight: had any of them kept its request, none would be left to send.
        int throwing = DeliveryLimits.IN_FLIGHT;
        var thrown = new AtomicInteger();
        Set<Long> delivered = ConcurrentHashMap.newKeySet();
        Transport throwsThenWorks = new Transport() {
            @Override
            public void send(PlantEvent event, SignedRequest request, Ended ended) {
                int count = thrown.incrementAndGet();
                if (count <= throwing) {
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
        var outbox = new MemoryOutbox(List.of(DeliverySettings.receiverKey(RECEIVER)));
        var settings = new DeliverySettings(List.of(RECEIVER), WebhookSecrets.parse(SECRET), WebhookListener.NONE,
                Duration.ofHours(72), Duration.ofMillis(1));
        int events = 2 * DeliveryLimits.IN_FLIGHT;
        var memory = new InMemoryPlantStore(outbox);
        // Recorded before the delivery starts, so that its first claim takes a whole page at once.
        for (long id = 1; id <= events; id++) {
            memory.create(new NewPlant(id, "Plant " + id));
        }
        var workerLog = CapturedLog.of(ReceiverHealth.LOG.getName());
        var delivery = WebhookDelivery.start(outbox, settings, to -> throwsThenWorks,
                OpenTelemetry.noop());
        try (var store = new DeliveringPlantStore(memory, delivery)) {
            assertTrue(Poll.until(Duration.ofSeconds(60), Duration.ofMillis(20), () -> delivered.size() == events),
                    "delivered " + delivered.size() + " of " + events + " after " + thrown.get() + " attempts");
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20),
                    () -> outbox.backlogs().counted(DeliverySettings.receiverKey(RECEIVER)).pending() == 0));
            assertEquals(events, delivered.size());
            assertTrue(store.isAvailable(), "the store never noticed");
        } finally {
            workerLog.close();
        }
        List<String> failing = workerLog.messagesWith(": failing (");
        assertEquals(1, failing.size(), failing.toString());
        assertTrue(failing.get(0).contains("a parser that reads past an empty head")
                || failing.get(0).contains("StackOverflowError"), failing.get(0));
        assertEquals(List.of(), workerLog.records().stream().filter(line -> line.getThrown() != null)
                .map(LogRecord::getMessage).toList(), "lines with a stack trace");
    }
}
