package dev.plantstore.core;

import static dev.plantstore.core.webhooks.DeliverySettings.receiverKey;

import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.WebhookSecrets;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a store sends its plant events and how it signs them (<a href="https://www.standardwebhooks.com/">Standard
 * Webhooks</a>), for {@link PlantStores#inMemory(Webhooks)} or {@link JdbcStoreSettings#withWebhooks}; a store without
 * it records no events. The module {@code dev.plantstore:plantstore-webhooks} sends them and must be on the class
 * path. Immutable; its {@code toString} never shows a secret.
 *
 * <pre>{@code
 * Webhooks webhooks = Webhooks.to(List.of(URI.create("https://search.example/plant-events")), secret)
 *         .withListener(metrics);
 * }</pre>
 */
public final class Webhooks {

    /** A receiver's fragment that sets its ceiling: {@code rate=N}, N requests a second from 1 to 10000. */
    private static final Pattern RATE_CEILING = Pattern.compile("rate=([1-9][0-9]{0,3}|10000)");

    /** How long an event is retried before it is given up on as undeliverable. */
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofHours(72);

    private final List<URI> receivers;
    private final WebhookSecrets secrets;
    private final WebhookListener listener;
    private final Duration retryPeriod;

    private Webhooks(List<URI> receivers, WebhookSecrets secrets, WebhookListener listener, Duration retryPeriod) {
        this.receivers = receivers;
        this.secrets = secrets;
        this.listener = listener;
        this.retryPeriod = retryPeriod;
    }

    /**
     * Events to each of {@code receivers} (absolute http or https URLs, no two alike), signed with each secret of
     * {@code secrets}: one {@code whsec_<base64>} secret of 24 to 64 bytes (an HMAC {@code v1,} signature), or several
     * separated by spaces while a secret is being replaced (each request then carries one signature per secret); and,
     * beside them or alone, {@code whsk_<base64>} Ed25519 signing keys of 32 bytes (a {@code v1a,} signature each,
     * which a receiver checks with the public key alone). The outbox files a receiver's events under its scheme, host,
     * port and path: two receivers may not differ only in user information or query. A receiver's fragment
     * {@code #rate=N} (never sent) keeps its requests to at most N starting in any second.
     *
     * @throws IllegalArgumentException naming what is wrong, never quoting a secret
     */
    public static Webhooks to(List<URI> receivers, String secrets) {
        Objects.requireNonNull(receivers, "null receivers");
        Objects.requireNonNull(secrets, "null secrets");
        if (receivers.isEmpty()) {
            throw new IllegalArgumentException("no webhook URL given");
        }
        var seen = new HashMap<String, URI>();
        for (URI receiver : receivers) {
            requireReceiver(receiver);
            URI earlier = seen.putIfAbsent(receiverKey(receiver), receiver);
            if (earlier != null) {
                throw new IllegalArgumentException("webhook URL " + receiverKey(receiver) + " is given twice"
                        + (earlier.equals(receiver) ? "" : ", differing only in user information, query or ceiling"));
            }
        }
        return new Webhooks(List.copyOf(receivers), WebhookSecrets.parse(secrets), WebhookListener.NONE,
                DEFAULT_RETRY_PERIOD);
    }

    /** The same webhooks, telling {@code listener} of each attempt and backlog. */
    public Webhooks withListener(WebhookListener listener) {
        return new Webhooks(receivers, secrets, Objects.requireNonNull(listener, "null listener"), retryPeriod);
    }

    /**
     * The same webhooks, retrying an event for {@code period} after its write (at least a minute) before giving it up
     * as undeliverable.
     */
    public Webhooks withRetryPeriod(Duration period) {
        Objects.requireNonNull(period, "null period");
        if (period.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("the retry period must be at least a minute");
        }
        return new Webhooks(receivers, secrets, listener, period);
    }

    public List<URI> receivers() {
        return receivers;
    }

    public Duration retryPeriod() {
        return retryPeriod;
    }

    /** What the delivery works from. */
    DeliverySettings delivery() {
        return new DeliverySettings(receivers, secrets, listener, retryPeriod, DeliverySettings.FIRST_RETRY);
    }

    @Override
    public String toString() {
        return "Webhooks" + receivers.stream().map(DeliverySettings::receiverKey).toList() + " (" + secrets
                + ", retried for " + retryPeriod + ")";
    }

    /**
     * {@code receiver}, checked as {@link #to} checks each, for a caller that reads its URLs before it has the secret.
     *
     * @throws IllegalArgumentException when it is not an absolute http or https URL with a host, has a port outside
     *                                  1 to 65535 or has a fragment other than {@code #rate=N}; the message quotes it
     *                                  without user information, query or fragment
     */
    public static URI requireReceiver(URI receiver) {
        Objects.requireNonNull(receiver, "null receiver");
        String scheme = receiver.getScheme() == null ? "" : receiver.getScheme().toLowerCase(Locale.ROOT);
        if (!receiver.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))
                || receiver.getHost() == null || receiver.getHost().isEmpty()) {
            throw new IllegalArgumentException("webhook URL " + receiverKey(receiver)
                    + " is not an absolute http or https URL with a host");
        }
        if (receiver.getPort() == 0 || receiver.getPort() > 65_535) {
            throw new IllegalArgumentException("webhook URL " + receiverKey(receiver)
                    + " has a port outside 1 to 65535");
        }
        if (receiver.getRawFragment() != null && !RATE_CEILING.matcher(receiver.getRawFragment()).matches()) {
            throw new IllegalArgumentException("webhook URL " + receiverKey(receiver) + " has a fragment other than "
                    + "#rate=N, its ceiling of N requests a second (1 to 10000)");
        }
        return receiver;
    }
}
