package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.WebhookSecrets;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * On the memory store a receiver that answers {@code 410 Gone} is turned off until the server stops: no further
 * request, no event kept or recorded for it, no write waiting for it, while another receiver gets every event.
 */
class ReceiverGoneTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(20);

    @AutoClose
    private final WebhookReceiver gone = WebhookReceiver.onFreePort();
    @AutoClose
    private final WebhookReceiver healthy = WebhookReceiver.onFreePort();
    private final AtomicBoolean toldOff = new AtomicBoolean();

    @Test
    void aReceiverAnswering410GetsNoFurtherRequestAndNoEventIsKeptForIt() throws Exception {
        gone.answer(410);
        String goneKey = DeliverySettings.receiverKey(gone.url());
        var outbox = new MemoryOutbox(List.of(goneKey, DeliverySettings.receiverKey(healthy.url())));
        var listener = new WebhookListener() {
            @Override
            public void turnedOff(URI receiver, boolean off) {
                if (receiver.equals(gone.url())) {
                    toldOff.set(off);
                }
            }
        };
        var settings = new DeliverySettings(List.of(gone.url(), healthy.url()),
                WebhookSecrets.parse(SECRET), listener, Duration.ofHours(72), Duration.ofMillis(20));
        var transports = new WebhookHttpClient(DeliveryLimits.IN_FLIGHT, DeliveryLimits.ATTEMPT_DEADLINE,
                new SslContextFactory.Client());
        try (PlantStore store = new DeliveringPlantStore(new InMemoryPlantStore(outbox),
                WebhookDelivery.start(outbox, settings, transports, OpenTelemetry.noop()))) {
            store.create(new NewPlant(1, "Fern", null));
            assertTrue(Poll.until(WAIT, LOOK, toldOff::get), "the listener is told the receiver is off");
            int tried = gone.received().size();
            for (long id = 2; id <= 200; id++) {
                store.create(new NewPlant(id, "Plant " + id, null));
            }
            assertTrue(Poll.until(WAIT, LOOK, () -> healthy.acceptedCount() >= 200), () -> "" + healthy.accepted());
            assertEquals(tried, gone.received().size(), "no further request");
            assertTrue(outbox.isOff(goneKey));
            assertEquals(0, outbox.counted(goneKey).pending(), "nothing kept or recorded for it");
        }
    }
}
