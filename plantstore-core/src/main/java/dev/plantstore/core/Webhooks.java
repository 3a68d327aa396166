package dev.plantstore.core;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
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

    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration LONGEST_RETRY = Duration.ofMinutes(5);
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

    private static final String SECRET_PREFIX = "whsec_";
    private static final Pattern SPACES = Pattern.compile(" +");

    private final List<URI> receivers;
    private final List<byte[]> keys;
    private final WebhookListener listener;
    private final Duration retryPeriod;
    private final Duration firstRetry;
    /** Null for the JDK's default, which trusts the JDK's certificate authorities. */
    private final SSLSocketFactory tlsSockets;

    private Webhooks(List<URI> receivers, List<byte[]> keys, WebhookListener listener, Duration retryPeriod,
                     Duration firstRetry, SSLSocketFactory tlsSockets) {
        this.receivers = receivers;
        this.keys = keys;
        this.listener = listener;
        this.retryPeriod = retryPeriod;
        this.firstRetry = firstRetry;
        this.tlsSockets = tlsSockets;
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
            checkReceiver(receiver);
            if (!seen.add(receiver.toString())) {
                throw new IllegalArgumentException("webhook URL " + redacted(receiver) + " is given twice");
            }
        }
        return new Webhooks(List.copyOf(receivers), keys(secrets), WebhookListener.NONE, DEFAULT_RETRY_PERIOD,
                FIRST_RETRY, null);
    }

    /** The same webhooks, telling {@code listener} of each attempt and backlog. */
    public Webhooks withListener(WebhookListener listener) {
        return new Webhooks(receivers, keys, Objects.requireNonNull(listener, "null listener"), retryPeriod,
                firstRetry, tlsSockets);
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
        return new Webhooks(receivers, keys, listener, period, firstRetry, tlsSockets);
    }

    /** Shorter waits between attempts, for tests that cannot wait seconds: the first retry after {@code first}. */
    Webhooks withFirstRetry(Duration first) {
        return new Webhooks(receivers, keys, listener, retryPeriod, first, tlsSockets);
    }

    /** Shorter retry period than the public minimum, for tests of what happens once it has passed. */
    Webhooks withRetryPeriodForTests(Duration period) {
        return new Webhooks(receivers, keys, listener, period, firstRetry, tlsSockets);
    }

    /**
     * The same webhooks, opening TLS connections with {@code factory}: for tests, whose receivers have certificates
     * that no public authority signed.
     */
    Webhooks withTlsSockets(SSLSocketFactory factory) {
        return new Webhooks(receivers, keys, listener, retryPeriod, firstRetry, Objects.requireNonNull(factory));
    }

    public List<URI> receivers() {
        return receivers;
    }

    public Duration retryPeriod() {
        return retryPeriod;
    }

    WebhookListener listener() {
        return listener;
    }

    Duration firstRetry() {
        return firstRetry;
    }

    SSLSocketFactory tlsSockets() {
        return tlsSockets == null ? (SSLSocketFactory) SSLSocketFactory.getDefault() : tlsSockets;
    }

    WebhookSigner signer() {
        return new WebhookSigner(keys);
    }

    /** The names the outbox files each receiver's events under. */
    List<String> receiverNames() {
        return receivers.stream().map(URI::toString).toList();
    }

    /**
     * The URL as logs and messages show it: scheme, host, port and path, without the user information, query or
     * fragment, which may hold credentials. A URL of any form is shown so, good or bad: what follows the scheme of an
     * opaque one ({@code mailto:...}) is left out whole.
     */
    static String redacted(URI receiver) {
        String authority = receiver.getRawAuthority();
        String path = receiver.getRawPath() == null ? "" : receiver.getRawPath();
        return (receiver.getScheme() == null ? "" : receiver.getScheme() + ":")
                + (authority == null ? "" : "//" + authority.substring(authority.lastIndexOf('@') + 1)) + path;
    }

    @Override
    public String toString() {
        return "Webhooks" + receivers.stream().map(Webhooks::redacted).toList() + " (" + keys.size() + " secret"
                + (keys.size() == 1 ? "" : "s") + ", retried for " + retryPeriod + ")";
    }

    private static void checkReceiver(URI receiver) {
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
    }

    private static List<byte[]> keys(String secrets) {
        String trimmed = secrets.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("no webhook secret given");
        }
        List<byte[]> keys = new ArrayList<>();
        int position = 0;
        for (String secret : SPACES.split(trimmed)) {
            position++;
            if (!secret.startsWith(SECRET_PREFIX)) {
                throw new IllegalArgumentException("webhook secret " + position + " does not start with whsec_");
            }
            byte[] key;
            try {
                key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("webhook secret " + position + " is not whsec_ and base64");
            }
            if (key.length < 24 || key.length > 64) {
                throw new IllegalArgumentException("webhook secret " + position + " holds " + key.length
                        + " bytes; it must hold 24 to 64 random bytes");
            }
            keys.add(key);
        }
        return List.copyOf(keys);
    }
}
