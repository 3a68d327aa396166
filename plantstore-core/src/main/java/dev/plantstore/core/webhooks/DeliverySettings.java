package dev.plantstore.core.webhooks;

import dev.plantstore.core.EventSink;
import dev.plantstore.core.WebhookListener;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Delivery} works from: the public {@code Webhooks} resolved to its receivers, keys, listener and
 * timings, and the other sinks the store sends to, each of which carries its own settings. Its {@code toString}, like
 * the public settings', shows no credential of a receiver's URL.
 *
 * @param receivers  the webhooks' receivers, none when the store has no webhooks
 * @param firstRetry the wait before an event's first retry; each later one doubles it
 * @param sinks      the destinations beside webhooks, each sent to by the provider that knows its kind
 */
public record DeliverySettings(List<URI> receivers, WebhookSecrets secrets, WebhookListener listener,
                               Duration retryPeriod, Duration firstRetry, List<EventSink> sinks) {

    /** The wait before an event's first retry when nothing else is said. */
    public static final Duration FIRST_RETRY = Duration.ofSeconds(1);

    public DeliverySettings {
        receivers = List.copyOf(receivers);
        Objects.requireNonNull(secrets, "null secrets");
        Objects.requireNonNull(listener, "null listener");
        Objects.requireNonNull(retryPeriod, "null retry period");
        Objects.requireNonNull(firstRetry, "null first retry");
        sinks = List.copyOf(sinks);
    }

    /** Settings for webhooks alone, as release 1.0 had them. */
    public DeliverySettings(List<URI> receivers, WebhookSecrets secrets, WebhookListener listener,
                            Duration retryPeriod, Duration firstRetry) {
        this(receivers, secrets, listener, retryPeriod, firstRetry, List.of());
    }

    /** The key of each destination, in the outbox's order: the webhooks' receivers, then the other sinks. */
    public List<String> destinationKeys() {
        var keys = new ArrayList<String>();
        receivers.forEach(receiver -> keys.add(receiverKey(receiver)));
        sinks.forEach(sink -> keys.add(receiverKey(sink.target())));
        return List.copyOf(keys);
    }

    @Override
    public String toString() {
        return "DeliverySettings" + destinationKeys() + " (retried for "
                + retryPeriod + ", first retry after " + firstRetry + ")";
    }

    /**
     * The receiver as the outbox files its events, and as logs, metrics and messages show it: scheme, host, port and
     * path, without the user information, query or fragment, which may hold credentials. So no secret of a URL reaches
     * the database, and a receiver's pending events follow it when its credentials or query change. A URL of any form
     * is shown so, good or bad: what follows the scheme of an opaque one ({@code mailto:...}) is left out whole.
     */
    public static String receiverKey(URI receiver) {
        String authority = receiver.getRawAuthority();
        String path = receiver.getRawPath() == null ? "" : receiver.getRawPath();
        return (receiver.getScheme() == null ? "" : receiver.getScheme() + ":")
                + (authority == null ? "" : "//" + authority.substring(authority.lastIndexOf('@') + 1)) + path;
    }
}
