package dev.plantstore.core;

import static dev.plantstore.core.webhooks.DeliverySettings.redacted;

import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.WebhookSigner;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SSLSocketFactory;

/**
 * Where a store sends its plant events and how it signs them, following
 * <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>. Give it to
 * {@link PlantStore#inMemory(Webhooks)} or, with {@link JdbcStoreSettings#withWebhooks}, to
 * {@link PlantStore#jdbc(javax.sql.DataSource, JdbcStoreSettings)}; a store without it records no events.
 *
 * <pre>{@code
 * Webhooks webhooks = Webhooks.to(List.of(URI.create("https://search.example/plant-events")), secret)
 *         .withListener(metrics);
 * }</pre>
 *
 * <p>Immutable. Its {@code toString} never shows a secret.
 */
public final class Webhooks {

    /** How long an event is retried before it is kept as undeliverable. */
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofHours(72);

    private final List<URI> receivers;
    private final WebhookSigner signer;
    private final WebhookListener listener;
    private final Duration retryPeriod;
    private final Duration firstRetry;

    private Webhooks(List<URI> receivers, WebhookSigner signer, WebhookListener listener, Duration retryPeriod,
                     Duration firstRetry) {
        this.receivers = receivers;
        this.signer = signer;
        this.listener = listener;
        this.retryPeriod = retryPeriod;
        this.firstRetry = firstRetry;
    }

    /**
     * Events to each of {@code receivers} (absolute http or https URLs, no two alike), signed with each secret of
     * {@code secrets}: one {@code whsec_<base64>} secret of 24 to 64 bytes, or several separated by spaces while a
     * secret is being replaced (each request then carries one signature per secret).
     *
     * @throws IllegalArgumentException naming what is wrong, never quoting a secret
     */
    public static Webhooks to(List<URI> receivers, String secrets) {
        Objects.requireNonNull(receivers, "null receivers");
        Objects.requireNonNull(secrets, "null secrets");
        if (receivers.isEmpty()) {
            throw new IllegalArgumentException("no webhook URL given");
        }
        var seen = new HashSet<String>();
        for (URI receiver : receivers) {
            requireReceiver(receiver);
            if (!seen.add(receiver.toString())) {
                throw new IllegalArgumentException("webhook URL " + redacted(receiver) + " is given twice");
            }
        }
        return new Webhooks(List.copyOf(receivers), WebhookSigner.of(secrets), WebhookListener.NONE,
                DEFAULT_RETRY_PERIOD, DeliverySettings.FIRST_RETRY);
    }

    /** The same webhooks, telling {@code listener} of each attempt and backlog. */
    public Webhooks withListener(WebhookListener listener) {
        return new Webhooks(receivers, signer, Objects.requireNonNull(listener, "null listener"), retryPeriod,
                firstRetry);
    }

    /**
     * The same webhooks, retrying an event for {@code period} after its write (at least a minute) before keeping it
     * as undeliverable.
     */
    public Webhooks withRetryPeriod(Duration period) {
        Objects.requireNonNull(period, "null period");
        if (period.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("the retry period must be at least a minute");
        }
        return new Webhooks(receivers, signer, listener, period, firstRetry);
    }

    /** Shorter waits between attempts, for tests that cannot wait seconds: the first retry after {@code first}. */
    Webhooks withFirstRetry(Duration first) {
        return new Webhooks(receivers, signer, listener, retryPeriod, first);
    }

    /** Shorter retry period than the public minimum, for tests of what happens once it has passed. */
    Webhooks withRetryPeriodForTests(Duration period) {
        return new Webhooks(receivers, signer, listener, period, firstRetry);
    }

    public List<URI> receivers() {
        return receivers;
    }

    public Duration retryPeriod() {
        return retryPeriod;
    }

    /** What the delivery works from, with the timings that tests may have shortened; TLS as the JDK trusts it. */
    DeliverySettings delivery() {
        return new DeliverySettings(receivers, signer, listener, retryPeriod, firstRetry,
                (SSLSocketFactory) SSLSocketFactory.getDefault());
    }

    /** The names the outbox files each receiver's events under. */
    List<String> receiverNames() {
        return receivers.stream().map(URI::toString).toList();
    }

    @Override
    public String toString() {
        return "Webhooks" + receivers.stream().map(DeliverySettings::redacted).toList() + " ("
                + signer.secrets() + " secret"
                + (signer.secrets() == 1 ? "" : "s") + ", retried for " + retryPeriod + ")";
    }

    /**
     * {@code receiver}, checked as {@link #to} checks each, for a caller that reads its URLs before it has the secret.
     *
     * @throws IllegalArgumentException when it is not an absolute http or https URL with a host, or has a fragment;
     *                                  the message quotes it without user information, query or fragment
     */
    public static URI requireReceiver(URI receiver) {
        Objects.requireNonNull(receiver, "null receiver");
        String scheme = receiver.getScheme() == null ? "" : receiver.getScheme().toLowerCase(Locale.ROOT);
        if (!receiver.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))
                || receiver.getHost() == null || receiver.getHost().isEmpty()) {
            throw new IllegalArgumentException("webhook URL " + redacted(receiver)
                    + " is not an absolute http or https URL with a host");
        }
        if (receiver.getRawFragment() != null) {
            throw new IllegalArgumentException("webhook URL " + redacted(receiver) + " has a fragment");
        }
        return receiver;
    }
}
