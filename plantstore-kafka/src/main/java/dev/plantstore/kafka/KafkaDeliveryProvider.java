package dev.plantstore.kafka;

import dev.plantstore.core.webhooks.Delivery;
import dev.plantstore.core.webhooks.DeliveryProvider;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import java.util.List;

/** The delivery a store starts when it is given a {@link KafkaSink}. Found by the store as a service; not called. */
public final class KafkaDeliveryProvider implements DeliveryProvider {

    /** For the service loader. */
    public KafkaDeliveryProvider() {
        // The service loader needs a public constructor; the provider holds nothing.
    }

    @Override
    public List<String> sendsTo(DeliverySettings settings) {
        return sinks(settings).stream().map(sink -> DeliverySettings.receiverKey(sink.target())).toList();
    }

    @Override
    public Delivery start(Outbox outbox, DeliverySettings settings) {
        return KafkaDelivery.start(outbox, sinks(settings));
    }

    private static List<KafkaSink> sinks(DeliverySettings settings) {
        return settings.sinks().stream().filter(KafkaSink.class::isInstance).map(KafkaSink.class::cast).toList();
    }
}
