package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.Delivery;
import dev.plantstore.core.webhooks.DeliveryProvider;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import io.opentelemetry.api.GlobalOpenTelemetry;
import java.util.List;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The delivery a store starts when it is given webhooks: over HTTP, through Jetty's client. Found by the store as a
 * service; not called directly. Its attempts are traced by the {@link GlobalOpenTelemetry} registered when the store
 * opens (none: spans that cost nothing, and requests that carry their write's trace context as it was recorded).
 */
public final class HttpDeliveryProvider implements DeliveryProvider {

    /** For the service loader. */
    public HttpDeliveryProvider() {
        // The service loader needs a public constructor; the provider holds nothing.
    }

    /** The webhooks' receivers; the store's other sinks are their own modules' to send. */
    @Override
    public List<String> sendsTo(DeliverySettings settings) {
        return settings.receivers().stream().map(DeliverySettings::receiverKey).toList();
    }

    @Override
    public Delivery start(Outbox outbox, DeliverySettings settings) {
        // One client for every receiver: as many connections per destination as its receivers may have in flight.
        var client = new WebhookHttpClient(DeliveryLimits.IN_FLIGHT * Math.max(1, settings.receivers().size()),
                DeliveryLimits.ATTEMPT_DEADLINE, new SslContextFactory.Client());
        return WebhookDelivery.start(outbox, settings, client, GlobalOpenTelemetry.getOrNoop());
    }
}
