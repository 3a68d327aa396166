package dev.plantstore.core.webhooks;

import dev.plantstore.core.WebhookListener;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLSocketFactory;

/**
 * What {@link WebhookDelivery} works from: the public {@code Webhooks} resolved to its receivers, signer, listener
 * and timings. Its {@code toString}, like the public settings', shows no credential of a receiver's URL.
 *
 * @param tlsSockets opens the TLS connections to https receivers
 */
public record DeliverySettings(List<URI> receivers, WebhookSigner signer, WebhookListener listener,
                               Duration retryPeriod, Duration firstRetry, SSLSocketFactory tlsSockets) {

    /** The wait before an event's first retry; each later one doubles it. */
    public static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    /** The longest wait between two attempts at one event. */
    static final Duration LONGEST_RETRY = Duration.ofMinutes(5);
    /** How long an attempt may take before it counts as failed. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

    public DeliverySettings {
        receivers = List.copyOf(receivers);
        Objects.requireNonNull(signer, "null signer");
        Objects.requireNonNull(listener, "null listener");
        Objects.requireNonNull(retryPeriod, "null retry period");
        Objects.requireNonNull(firstRetry, "null first retry");
        Objects.requireNonNull(tlsSockets, "null TLS sockets");
    }

    @Override
    public String toString() {
        return "DeliverySettings" + receivers.stream().map(DeliverySettings::redacted).toList() + " (retried for "
                + retryPeriod + ", first retry after " + firstRetry + ")";
    }

    /**
     * The URL as logs and messages show it: scheme, host, port and path, without the user information, query or
     * fragment, which may hold credentials. A URL of any form is shown so, good or bad: what follows the scheme of an
     * opaque one ({@code mailto:...}) is left out whole.
     */
    public static String redacted(URI receiver) {
        String authority = receiver.getRawAuthority();
        String path = receiver.getRawPath() == null ? "" : receiver.getRawPath();
        return (receiver.getScheme() == null ? "" : receiver.getScheme() + ":")
                + (authority == null ? "" : "//" + authority.substring(authority.lastIndexOf('@') + 1)) + path;
    }
}
