package dev.plantstore.core.webhooks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What sends a store's recorded events to one kind of destination: webhooks, provided by the
 * {@code plantstore-webhooks} module, which holds the HTTP client; a Kafka topic, by {@code plantstore-kafka}. So the
 * core, and an embedder that sends no events, takes neither. A store finds every provider on the class path (or module
 * path) as a service, the way JDBC finds its drivers, and starts each that has destinations in its settings: each sends
 * to its own destinations from their own places in the one outbox.
 */
public interface DeliveryProvider {

    /**
     * Starts delivering the events of {@code outbox} as {@code settings} say, subscribed to those its store publishes
     * as they commit ({@link Outbox#committed}): those filed under the destinations {@link #sendsTo} names.
     */
    Delivery start(Outbox outbox, DeliverySettings settings);

    /**
     * The keys of the destinations of {@code settings} that this provider sends to, as the outbox files their events
     * ({@link DeliverySettings#receiverKey}); none when it has nothing to do there, and then it is not started. By
     * default the webhooks' receivers, the only destinations of release 1.0.
     */
    default List<String> sendsTo(DeliverySettings settings) {
        return settings.receivers().stream().map(DeliverySettings::receiverKey).toList();
    }

    /**
     * Starts the delivery of every provider on the class path that sends to a destination of {@code settings}, as one
     * delivery: its admission waits for each, and closing it stops each.
     *
     * @throws IllegalStateException when a destination has no provider, naming the module to add, or two
     */
    static Delivery startFor(Outbox outbox, DeliverySettings settings) {
        Map<String, DeliveryProvider> senders = new HashMap<>();
        List<DeliveryProvider> toStart = new ArrayList<>();
        for (DeliveryProvider provider : ServiceLoader.load(DeliveryProvider.class,
                DeliveryProvider.class.getClassLoader())) {
            List<String> keys = provider.sendsTo(settings);
            for (String key : keys) {
                DeliveryProvider earlier = senders.putIfAbsent(key, provider);
                if (earlier != null) {
                    throw new IllegalStateException("both " + earlier.getClass().getName() + " and "
                            + provider.getClass().getName() + " would send the events of " + key
                            + "; keep one of their modules on the class path");
                }
            }
            if (!keys.isEmpty()) {
                toStart.add(provider);
            }
        }
        for (String key : settings.destinationKeys()) {
            if (!senders.containsKey(key)) {
                throw new IllegalStateException(missingModule(settings, key));
            }
        }
        List<Delivery> started = new ArrayList<>();
        try {
            for (DeliveryProvider provider : toStart) {
                started.add(provider.start(outbox, settings));
            }
        } catch (RuntimeException e) {
            new Deliveries(started).close();
            throw e;
        }
        return started.size() == 1 ? started.get(0) : new Deliveries(started);
    }

    private static String missingModule(DeliverySettings settings, String key) {
        boolean webhook = settings.receivers().stream().anyMatch(receiver ->
                DeliverySettings.receiverKey(receiver).equals(key));
        if (webhook) {
            return "webhooks are sent by the module dev.plantstore:plantstore-webhooks, which is not on the class "
                    + "path; add it beside plantstore-core";
        }
        String sink = settings.sinks().stream()
                .filter(candidate -> DeliverySettings.receiverKey(candidate.target()).equals(key))
                .map(candidate -> candidate.getClass().getName())
                .findFirst().orElse("a sink");
        return "no module on the class path sends the events of " + key + " (" + sink + "); add the module that "
                + "provides its delivery beside plantstore-core";
    }
}
