package dev.plantstore.oidc;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.ParseException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The keys an issuer publishes: found through its metadata, fetched when first needed, fetched again when a token names
 * a key not among them, and refreshed by {@link #refresh()} on a schedule the owner keeps.
 *
 * <p>However many tokens name unknown keys, at most one fetch starts per {@code minFetchInterval}: a flood of made-up
 * key ids costs the provider one request per interval. Keys once fetched are kept until a fetch succeeds, so an
 * outage of the provider leaves every known key working. Thread-safe; a fetch runs on the thread that needs it, and
 * other threads needing a key meanwhile wait for its answer rather than starting their own.
 */
final class IssuerKeys {

    private static final System.Logger LOG = System.getLogger(IssuerKeys.class.getName());

    /** A key set or a metadata document larger than this is refused: no provider publishes one. */
    private static final int MAX_DOCUMENT_BYTES = 1 << 20;

    /** What a lookup found. */
    sealed interface Lookup {
    }

    record Found(JWK key) implements Lookup {
    }

    /** The provider's current key set has no such key: the token was not signed by this issuer. */
    record Unknown() implements Lookup {
    }

    /** No key set could be had; asking again after {@code retryAfter} may succeed. */
    record Unavailable(Duration retryAfter) implements Lookup {
    }

    private final URI issuer;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final long minFetchIntervalNanos;
    private final LongSupplier nanoClock;
    private final ReentrantLock fetching = new ReentrantLock();

    private volatile JWKSet keys;
    /** Guarded by {@link #fetching}. */
    private Optional<URI> jwksUri = Optional.empty();
    /** Guarded by {@link #fetching}; when the last fetch started, or none yet. */
    private Optional<Long> lastFetchNanos = Optional.empty();
    /** Guarded by {@link #fetching}. */
    private boolean failing;

    IssuerKeys(URI issuer, Duration requestTimeout, Duration minFetchInterval, LongSupplier nanoClock) {
        this.issuer = Objects.requireNonNull(issuer, "null issuer");
        this.requestTimeout = requestTimeout;
        this.minFetchIntervalNanos = minFetchInterval.toNanos();
        this.nanoClock = nanoClock;
        // No redirects: the metadata and the keys come from the addresses the issuer names, nowhere else.
        this.http = HttpClient.newBuilder()
                .connectTimeout(requestTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The key with this id, fetching the key set when it is unknown and the interval allows. */
    Lookup find(String keyId) {
        Optional<JWK> known = known(keyId);
        if (known.isPresent()) {
            return new Found(known.get());
        }
        fetching.lock();
        try {
            known = known(keyId);
            if (known.isPresent()) {
                return new Found(known.get());
            }
            long now = nanoClock.getAsLong();
            if (lastFetchNanos.isPresent() && now - lastFetchNanos.get() < minFetchIntervalNanos) {
                long waitNanos = minFetchIntervalNanos - (now - lastFetchNanos.get());
                return keys == null || failing ? unavailableFor(waitNanos) : new Unknown();
            }
            if (!fetchLocked()) {
                return unavailableFor(minFetchIntervalNanos);
            }
            return known(keyId).<Lookup>map(Found::new).orElseGet(Unknown::new);
        } finally {
            fetching.unlock();
        }
    }

    /**
     * Fetches the key set again if it was ever fetched: keys the provider adds are known before a token needs them, and
     * keys it drops stop working. A failure keeps the keys held.
     */
    void refresh() {
        fetching.lock();
        try {
            if (keys != null) {
                fetchLocked();
            }
        } finally {
            fetching.unlock();
        }
    }

    private Optional<JWK> known(String keyId) {
        JWKSet held = keys;
        return held == null ? Optional.empty() : Optional.ofNullable(held.getKeyByKeyId(keyId));
    }

    private static Unavailable unavailableFor(long nanos) {
        return new Unavailable(Duration.ofSeconds(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L)));
    }

    /** True when the keys were fetched; a failure is logged when it starts and when it ends, not on every try. */
    private boolean fetchLocked() {
        lastFetchNanos = Optional.of(nanoClock.getAsLong());
        try {
            URI location = jwksUri.isPresent() ? jwksUri.get() : discoverKeySet();
            jwksUri = Optional.of(location);
            keys = JWKSet.parse(get(location));
            if (failing) {
                failing = false;
                LOG.log(System.Logger.Level.INFO, "the keys of identity provider " + issuer + " can be fetched again");
            }
            return true;
        } catch (IOException | ParseException | IssuerException e) {
            // The key set's address may have moved with the provider's configuration: look it up again next time.
            jwksUri = Optional.empty();
            if (!failing) {
                failing = true;
                LOG.log(System.Logger.Level.WARNING, "the keys of identity provider " + issuer
                        + " cannot be fetched (" + describe(e) + "); keys already fetched keep working"
                        + (keys == null ? ", but there are none yet: its tokens are answered 503" : ""));
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The key set's address from the issuer's OpenID Connect metadata, or else its RFC 8414 OAuth 2.0 metadata. Either
     * must name the configured issuer exactly (OpenID Connect Discovery section 4.3): metadata for another issuer is
     * refused.
     */
    private URI discoverKeySet() throws IOException, InterruptedException, ParseException, IssuerException {
        String withoutSlash = issuer.toString().replaceAll("/+$", "");
        URI openIdConfiguration = URI.create(withoutSlash + "/.well-known/openid-configuration");
        Optional<String> metadata = getIfPresent(openIdConfiguration);
        if (metadata.isEmpty()) {
            String path = issuer.getRawPath() == null ? "" : issuer.getRawPath().replaceAll("/+$", "");
            metadata = getIfPresent(issuer.resolve("/.well-known/oauth-authorization-server" + path));
        }
        if (metadata.isEmpty()) {
            throw new IssuerException("no metadata at " + openIdConfiguration + " nor RFC 8414's address");
        }
        Map<String, Object> document = JSONObjectUtils.parse(metadata.get());
        String named = JSONObjectUtils.getString(document, "issuer");
        if (!issuer.toString().equals(named)) {
            throw new IssuerException("its metadata names issuer " + named + ", not " + issuer);
        }
        URI keySet = JSONObjectUtils.getURI(document, "jwks_uri");
        if (keySet == null || !keySet.isAbsolute()) {
            throw new IssuerException("its metadata has no absolute jwks_uri");
        }
        return keySet;
    }

    private String get(URI location) throws IOException, InterruptedException, IssuerException {
        return getIfPresent(location).orElseThrow(() -> new IssuerException(location + " answered 404"));
    }

    private Optional<String> getIfPresent(URI location) throws IOException, InterruptedException, IssuerException {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(location)
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .GET()
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new IssuerException(location + " answered " + response.statusCode());
        }
        if (response.body().length > MAX_DOCUMENT_BYTES) {
            throw new IssuerException(location + " sent more than " + MAX_DOCUMENT_BYTES + " bytes");
        }
        return Optional.of(new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** The provider answered, but not with what an issuer must publish. */
    private static final class IssuerException extends Exception {
        private static final long serialVersionUID = 1L;

        IssuerException(String message) {
            super(message, null, false, false);
        }
    }
}
