package dev.plantstore.oidc;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetRetrievalException;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.JSONObjectUtils;
import dev.plantstore.core.threads.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The issuer's key set, fetched for nimbus's key source ({@code JWKSourceBuilder}), which caches, refreshes and keeps
 * it through outages. Here is what nimbus lacks: discovery (the key set's address from metadata naming the same
 * issuer), one fetch per {@code minFetchInterval} with the time until the next (for {@code Retry-After}), a deadline
 * for the whole fetch and a size limit on what is read (nimbus's retriever bounds each read only, and the JDK's
 * {@code HttpURLConnection} copies a chunked body whole per chunk), the ids of dropped keys, and one log line when
 * fetching starts and stops failing. Thread-safe; {@link #close()} stops the threads that run the exchanges.
 */
final class IssuerKeys implements JWKSetSource<SecurityContext> {

    private static final System.Logger LOG = System.getLogger(IssuerKeys.class.getName());

    /** A key set or a metadata document larger than this is refused: no provider publishes one. */
    static final int MAX_DOCUMENT_BYTES = 1 << 20;

    /** Key ids the provider dropped, remembered so that their tokens are refused at once; the oldest go first. */
    private static final int MAX_RETIRED_KEY_IDS = 1_000;

    /** A fetch refused because the last one started less than the interval ago. */
    static final class FetchNotAllowed extends KeySourceException {
        private static final long serialVersionUID = 1L;

        private final Duration retryAfter;

        FetchNotAllowed(Duration retryAfter) {
            super("the key set may be fetched again in " + retryAfter.toSeconds() + " s");
            this.retryAfter = retryAfter;
        }

        Duration retryAfter() {
            return retryAfter;
        }
    }

    /** The key set last fetched, and the ids of keys earlier sets held that it does not, oldest first. */
    private record Published(JWKSet keys, Set<String> retiredKeyIds) {

        Published after(JWKSet fetched) {
            Set<String> current = fetched.getKeys().stream().map(JWK::getKeyID).filter(Objects::nonNull)
                    .collect(Collectors.toSet());
            LinkedHashSet<String> retired = new LinkedHashSet<>(retiredKeyIds);
            keys.getKeys().stream().map(JWK::getKeyID).filter(Objects::nonNull).forEach(retired::add);
            retired.removeAll(current);
            List<String> oldestFirst = List.copyOf(retired);
            return new Published(fetched, Set.copyOf(oldestFirst.subList(
                    Math.max(0, oldestFirst.size() - MAX_RETIRED_KEY_IDS), oldestFirst.size())));
        }
    }

    private final URI issuer;
    private final Duration requestTimeout;
    private final Duration minFetchInterval;
    private final Clock clock;
    private final ExecutorService exchanges =
            Executors.newCachedThreadPool(DaemonThreads.named("plantstore-oidc-fetch"));
    /**
     * No redirect is followed: the metadata and the keys come from the addresses the issuer names, nowhere else.
     * HTTP/1.1 only: what a server sends beyond what is read then mostly waits in the kernel's buffers, while over
     * HTTP/2 the JDK's client lets up to its flow-control window, 16 MiB, into the heap.
     */
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private volatile Published published = new Published(new JWKSet(), Set.of());
    private volatile boolean failing;
    /** Guarded by {@code this}; when the last fetch started, or none yet. */
    private Optional<Instant> lastFetch = Optional.empty();
    /** Touched by the fetch under way only. */
    private Optional<URI> jwksUri = Optional.empty();

    IssuerKeys(URI issuer, Duration requestTimeout, Duration minFetchInterval, Clock clock) {
        this.issuer = Objects.requireNonNull(issuer, "null issuer");
        this.requestTimeout = requestTimeout;
        this.minFetchInterval = minFetchInterval;
        this.clock = clock;
    }

    /**
     * Fetches the key set, unless the last fetch started less than the interval ago ({@link FetchNotAllowed}). A fetch
     * that fails is a {@link JWKSetRetrievalException}, on which nimbus's outage tolerance keeps the keys it holds.
     */
    @Override
    public JWKSet getJWKSet(JWKSetCacheRefreshEvaluator refreshEvaluator, long currentTime, SecurityContext context)
            throws KeySourceException {
        synchronized (this) {
            Instant now = clock.instant();
            Duration wait = untilNextFetchAt(now);
            if (!wait.isZero()) {
                throw new FetchNotAllowed(roundedUp(wait));
            }
            lastFetch = Optional.of(now);
        }
        try {
            JWKSet fetched = fetch(System.nanoTime() + requestTimeout.toNanos());
            published = published.after(fetched);
            if (failing) {
                failing = false;
                LOG.log(System.Logger.Level.INFO, "the keys of identity provider " + issuer + " can be fetched again");
            }
            return fetched;
        } catch (IOException | ParseException | IssuerException e) {
            // The key set's address may have moved with the provider's configuration: look it up again next time.
            jwksUri = Optional.empty();
            if (!failing) {
                failing = true;
                LOG.log(System.Logger.Level.WARNING, "the keys of identity provider " + issuer
                        + " cannot be fetched (" + describe(e) + "); keys already fetched keep working"
                        + (published.keys().isEmpty() ? ", but there are none yet: its tokens are answered 503" : ""));
            }
            throw new JWKSetRetrievalException(describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JWKSetRetrievalException("interrupted", e);
        }
    }

    /** The key with this id in the key set last fetched. */
    Optional<JWK> published(String keyId) {
        return Optional.ofNullable(published.keys().getKeyByKeyId(keyId));
    }

    /** Whether {@code key} is still in the key set: a key the provider dropped ends what was verified with it. */
    boolean publishes(JWK key) {
        return published(key.getKeyID()).filter(current -> current == key || current.equals(key)).isPresent();
    }

    /** Whether the provider published a key with this id once, and no longer does. */
    boolean retired(String keyId) {
        return published.retiredKeyIds().contains(keyId);
    }

    /** Whether the last fetch failed. */
    boolean failing() {
        return failing;
    }

    /** How long until the key set may be fetched again, in whole seconds and at least one: a {@code Retry-After}. */
    Duration untilNextFetch() {
        synchronized (this) {
            return roundedUp(untilNextFetchAt(clock.instant()));
        }
    }

    /** Stops the threads that run the exchanges; an exchange under way is abandoned. */
    @Override
    public void close() {
        exchanges.shutdownNow();
    }

    /** Called holding {@code this}. */
    private Duration untilNextFetchAt(Instant now) {
        return lastFetch.map(last -> Duration.between(now, last.plus(minFetchInterval)))
                .filter(wait -> !wait.isNegative() && !wait.isZero()).orElse(Duration.ZERO);
    }

    private static Duration roundedUp(Duration wait) {
        return Duration.ofSeconds(Math.max(1, (wait.toNanos() + 999_999_999L) / 1_000_000_000L));
    }

    private JWKSet fetch(long deadline) throws IOException, ParseException, IssuerException, InterruptedException {
        URI location = jwksUri.isPresent() ? jwksUri.get() : discoverKeySet(deadline);
        JWKSet fetched = JWKSet.parse(retrieve(location, deadline).orElseThrow(
                () -> new IssuerException(location + " answered 404")));
        jwksUri = Optional.of(location);
        return fetched;
    }

    /**
     * The key set's address from the issuer's OpenID Connect metadata, or else its RFC 8414 OAuth 2.0 metadata. Either
     * must name the configured issuer exactly (OpenID Connect Discovery section 4.3): metadata for another issuer is
     * refused, and so is a key-set address that is not an http or https URL.
     */
    private URI discoverKeySet(long deadline) throws IOException, InterruptedException, ParseException,
            IssuerException {
        String withoutSlash = issuer.toString().replaceAll("/+$", "");
        URI openIdConfiguration = URI.create(withoutSlash + "/.well-known/openid-configuration");
        Optional<String> metadata = retrieve(openIdConfiguration, deadline);
        if (metadata.isEmpty()) {
            String path = issuer.getRawPath() == null ? "" : issuer.getRawPath().replaceAll("/+$", "");
            metadata = retrieve(issuer.resolve("/.well-known/oauth-authorization-server" + path), deadline);
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
        String scheme = keySet.getScheme();
        if (!("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme)) || keySet.getHost() == null) {
            throw new IssuerException("its metadata names a jwks_uri that is not an http or https URL: " + keySet);
        }
        return keySet;
    }

    /**
     * The document at {@code location}, read whole before {@code deadline} ({@link System#nanoTime()}), or empty when
     * it is not there (404). The exchange runs on a thread of its own, which this one waits for until the deadline;
     * then it interrupts that thread, which ends the exchange and closes its connection.
     */
    private Optional<String> retrieve(URI location, long deadline) throws IOException, InterruptedException,
            IssuerException {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
            throw fetchTooSlow(location);
        }
        HttpRequest request = HttpRequest.newBuilder(location)
                .timeout(Duration.ofNanos(remaining))
                .header("Accept", "application/json")
                .build();
        Future<Optional<String>> exchange;
        try {
            exchange = exchanges.submit(() -> exchange(request));
        } catch (RejectedExecutionException closed) {
            throw new IOException("the verifier is closed", closed);
        }
        try {
            return exchange.get(remaining, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw fetchTooSlow(location);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IssuerException refused) {
                throw refused;
            }
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /**
     * One exchange, on a thread of {@link #exchanges}. A document is read up to one byte past the limit and no
     * further: closing the body before its end closes the connection, and what the server sent beyond stays unread.
     */
    private Optional<String> exchange(HttpRequest request) throws IOException, InterruptedException,
            IssuerException {
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            int status = response.statusCode();
            if (status == 404) {
                return Optional.empty();
            }
            if (status < 200 || status > 299) {
                throw new IssuerException(request.uri() + " answered " + status);
            }
            byte[] document = body.readNBytes(MAX_DOCUMENT_BYTES + 1);
            if (document.length > MAX_DOCUMENT_BYTES) {
                throw new IssuerException(request.uri() + " sent more than " + MAX_DOCUMENT_BYTES + " bytes");
            }
            return Optional.of(new String(document, StandardCharsets.UTF_8));
        }
    }

    private IssuerException fetchTooSlow(URI location) {
        return new IssuerException(location + " did not send its whole answer within the fetch's "
                + requestTimeout.toMillis() + " ms");
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e instanceof IssuerException ? message
                : e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** The provider answered, but not with what an issuer must publish. */
    private static final class IssuerException extends Exception {
        private static final long serialVersionUID = 1L;

        IssuerException(String message) {
            super(message, null, false, false);
        }
    }
}
