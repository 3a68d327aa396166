package dev.plantstore.core.webhooks;

import java.util.ServiceLoader;

/**
 * What sends a store's recorded events: provided by the {@code plantstore-webhooks} module, which holds the HTTP
 * client, so that the core, and an embedder that sends no webhooks, takes none. A store given webhooks finds it on the
 * class path (or module path) as a service, the way JDBC finds its drivers.
 */
public interface DeliveryProvider {

    /**
     * Starts delivering the events of {@code outbox} as {@code settings} say, subscribed to those its store publishes
     * as they commit ({@link Outbox#committed}).
     */
    Delivery start(Outbox outbox, DeliverySettings settings);

    /**
     * Starts the delivery of the provider on the class path.
     *
     * @throws IllegalStateException when there is none, naming the module to add
     */
    static Delivery startFor(Outbox outbox, DeliverySettings settings) {
        DeliveryProvider provider = ServiceLoader.load(DeliveryProvider.class, DeliveryProvider.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("webhooks are sent by the module dev.plantstore:"
                        + "plantstore-webhooks, which is not on the class path; add it beside plantstore-core"));
        return provider.start(outbox, settings);
    }
}
