package dev.plantstore.core;

import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.WebhookSecrets;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Every destination of a store's events, the webhooks' receivers and the other sinks, checked to share no target. */
record Events(DeliverySettings settings) {

    static Events of(Optional<Webhooks> webhooks, List<EventSink> sinks) {
        DeliverySettings settings = webhooks.map(Webhooks::delivery)
                .orElseGet(() -> new DeliverySettings(List.of(), new WebhookSecrets(List.of(), List.of()),
                        WebhookListener.NONE, Webhooks.DEFAULT_RETRY_PERIOD, DeliverySettings.FIRST_RETRY));
        var withSinks = new DeliverySettings(settings.receivers(), settings.secrets(), settings.listener(),
                settings.retryPeriod(), settings.firstRetry(), sinks);
        Set<String> seen = new HashSet<>();
        for (String key : withSinks.destinationKeys()) {
            if (!seen.add(key)) {
                throw new IllegalArgumentException("the events' destination " + key + " is given twice");
            }
        }
        return new Events(withSinks);
    }
}
