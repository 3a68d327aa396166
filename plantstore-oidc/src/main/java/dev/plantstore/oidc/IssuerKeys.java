package dev.plantstore.oidc;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The keys an issuer publishes: found through its metadata, fetched when first needed, fetched again when a token names
 * a key not among them, and refreshed by {@link #refresh()} on a schedule the owner keeps.
 *
 * <p>However many tokens name unknown keys, at most one fetch starts per {@code minFetchInterval}: a flood of made-up
 * key ids costs the provider one request per interval. Keys once fetched are kept until a fetch succeeds, so an
 * outage of the provider leaves every known key working.
 *
 * <p>Fetches run one at a time on a thread of their own. A fetch, metadata and key set together, must be complete,
 * bodies included, within {@code requestTimeout}, and each document may be at most {@link #MAX_DOCUMENT_BYTES}: reading
 * stops at either limit. A thread needing a fetch waits for it at most {@code requestTimeout} and is then told the keys
 * are unavailable; it never waits on a lock held across the network. Thread-safe; {@link #close()} stops the fetching
 * thread.
 */
final class IssuerKeys implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(IssuerKeys.class.getName());

    /** A key set or a metadata document larger than this is refused: no provider publishes one. */
    static final int MAX_DOCUMENT_BYTES = 1 << 20;

    /** Key ids the provider dropped, remembered so that their tokens are refused at once; the oldest go first. */
    private static final int MAX_RETIRED_KEY_IDS = 1_000;

    /** What a lookup found. */
    sealed interface Lookup {
    }

    record Found(JWK key) implements Lookup {
    }

    /** The provider's key set has no such key: the token was not signed by this issuer, or its key was dropped. */
    record Unknown() implements Lookup {
    }

    /**
     * No key could be had now: the key set cannot be fetched, or the key may be new and the key set cannot be fetched
     * again before {@code retryAfter}.
     */
    record Unavailable(Duration retryAfter) implements Lookup {
    }

    private final URI issuer;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final long minFetchIntervalNanos;
    private final LongSupplier nanoClock;
    private final ExecutorService fetcher;

    private volatile HeldKeys held;
    /** Guarded by {@code this}; when the last fetch started, or none yet. */
    private Optional<Long> lastFetchNanos = Optional.empty();
    /** Guarded by {@code this}; the fetch under way, if one is. */
    private Optional<CompletableFuture<Boolean>> inFlight = Optional.empty();
    /** Touched by the fetching thread only. */
    private Optional<URI> jwksUri = Optional.empty();
    /** Touched by the fetching thread only. */
    private boolean failing;

    /** The key set last fetched, and the ids of keys earlier sets held that it does not, oldest first. */
    private record HeldKeys(JWKSet keys, Set<String> retiredKeyIds) {
    }

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
        this.fetcher = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "plantstore-oidc-fetch");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The key with this id. A key id not held makes the key set be fetched, if the interval allows, and waited for at
     * most the request time-out; if it does not, the key may be one the provider has just added, and the lookup is
     * unavailable until the next fetch is allowed. A key id the provider dropped is unknown at once.
     */
    Lookup find(String keyId) {
        HeldKeys now = held;
        if (now != null) {
            JWK key = now.keys().getKeyByKeyId(keyId);
            if (key != null) {
                return new Found(key);
            }
            if (now.retiredKeyIds().contains(keyId)) {
                return new Unknown();
            }
        }
        CompletableFuture<Boolean> fetch;
        synchronized (this) {
            if (inFlight.isPresent()) {
                fetch = inFlight.get();
            } else {
                long untilAllowed = nanosUntilNextFetch();
                if (untilAllowed > 0) {
                    return unavailableFor(untilAllowed);
                }
                fetch = startFetch();
            }
        }
        Optional<Boolean> fetched = await(fetch, requestTimeout);
        if (fetched.isEmpty() || !fetched.get()) {
            return unavailableFor(Math.max(1, nanosUntilNextFetch()));
        }
        return Optional.ofNullable(held.keys().getKeyByKeyId(keyId)).<Lookup>map(Found::new).orElseGet(Unknown::new);
    }

    /** Whether {@code key} is still in the key set: a key the provider dropped ends what was verified with it. */
    boolean publishes(JWK key) {
        HeldKeys now = held;
        JWK current = now == null ? null : now.keys().getKeyByKeyId(key.getKeyID());
        return current == key || key.equals(current);
    }

    /**
     * Fetches the key set again if it was ever fetched, and waits for that fetch: keys the provider adds are known
     * before a token needs them, and keys it drops stop working. A failure keeps the keys held.
     */
    void refresh() {
        CompletableFuture<Boolean> fetch;
        synchronized (this) {
            if (held == null) {
                return;
            }
            fetch = inFlight.orElseGet(this::startFetch);
        }
        try {
            // Bounded: each document the fetch reads is bounded by the request time-out.
            fetch.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.log(System.Logger.Level.ERROR, "fetching the keys of identity provider " + issuer
                    + " failed unexpectedly", e.getCause());
        }
    }

    /** Stops the fetching thread; a fetch under way is abandoned. */
    @Override
    public void close() {
        fetcher.shutdownNow();
    }

    private long nanosUntilNextFetch() {
        synchronized (this) {
            return lastFetchNanos.map(last -> minFetchIntervalNanos - (nanoClock.getAsLong() - last)).orElse(0L);
        }
    }

    /** Called holding {@code this}. */
    private CompletableFuture<Boolean> startFetch() {
        lastFetchNanos = Optional.of(nanoClock.getAsLong());
        CompletableFuture<Boolean> fetch;
        try {
            fetch = CompletableFuture.supplyAsync(this::fetch, fetcher);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.completedFuture(false);
        }
        inFlight = Optional.of(fetch);
        fetch.whenComplete((fetched, failure) -> {
            synchronized (this) {
                if (inFlight.orElse(null) == fetch) {
                    inFlight = Optional.empty();
                }
            }
        });
        return fetch;
    }

    private static Optional<Boolean> await(CompletableFuture<Boolean> fetch, Duration limit) {
        try {
            return Optional.of(fetch.get(limit.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException stillFetching) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.of(false);
        }
    }

    private static Unavailable unavailableFor(long nanos) {
        return new Unavailable(Duration.ofSeconds(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L)));
    }

    /**
     * On the fetching thread: true when the keys were fetched. A failure is logged when it starts and when it ends,
     * not on every try.
     */
    private boolean fetch() {
        long deadline = System.nanoTime() + requestTimeout.toNanos();
        try {
            URI location = jwksUri.isPresent() ? jwksUri.get() : discoverKeySet(deadline);
            JWKSet fetched = JWKSet.parse(get(location, deadline));
            jwksUri = Optional.of(location);
            held = heldAfter(held, fetched);
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
                        + (held == null ? ", but there are none yet: its tokens are answered 503" : ""));
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static HeldKeys heldAfter(HeldKeys before, JWKSet fetched) {
        Set<String> current = fetched.getKeys().stream().map(JWK::getKeyID).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        LinkedHashSet<String> retired = new LinkedHashSet<>();
        if (before != null) {
            retired.addAll(before.retiredKeyIds());
            before.keys().getKeys().stream().map(JWK::getKeyID).filter(Objects::nonNull).forEach(retired::add);
        }
        retired.removeAll(current);
        List<String> oldestFirst = List.copyOf(retired);
        return new HeldKeys(fetched, Collections.unmodifiableSet(new LinkedHashSet<>(oldestFirst.subList(
                Math.max(0, oldestFirst.size() - MAX_RETIRED_KEY_IDS), oldestFirst.size()))));
    }

    /**
     * The key set's address from the issuer's OpenID Connect metadata, or else its RFC 8414 OAuth 2.0 metadata. Either
     * must name the configured issuer exactly (OpenID Connect Discovery section 4.3): metadata for another issuer is
     * refused, and so is a key-set address that is not an http or https URL.
     */
    private URI discoverKeySet(long deadline)
            throws IOException, InterruptedException, ParseException, IssuerException {
        String withoutSlash = issuer.toString().replaceAll("/+$", "");
        URI openIdConfiguration = URI.create(withoutSlash + "/.well-known/openid-configuration");
        Optional<String> metadata = getIfPresent(openIdConfiguration, deadline);
        if (metadata.isEmpty()) {
            String path = issuer.getRawPath() == null ? "" : issuer.getRawPath().replaceAll("/+$", "");
            metadata = getIfPresent(issuer.resolve("/.well-known/oauth-authorization-server" + path), deadline);
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

    private String get(URI location, long deadline) throws IOException, InterruptedException, IssuerException {
        return getIfPresent(location, deadline).orElseThrow(() -> new IssuerException(location + " answered 404"));
    }

    /**
     * The document at {@code location}, read whole before {@code deadline} ({@link System#nanoTime()}), or empty when
     * it answers 404.
     */
    private Optional<String> getIfPresent(URI location, long deadline)
            throws IOException, InterruptedException, IssuerException {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
            throw fetchTooSlow(location);
        }
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(HttpRequest.newBuilder(location)
                .timeout(Duration.ofNanos(remaining))
                .header("Accept", "application/json")
                .GET()
                .build(), response -> new LimitedBody(response.headers().firstValueAsLong("Content-Length")));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(remaining, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw fetchTooSlow(location);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException wrapped ? wrapped.getCause() : e.getCause();
            if (cause instanceof TooLargeException) {
                throw new IssuerException(location + " sent more than " + MAX_DOCUMENT_BYTES + " bytes");
            }
            throw cause instanceof IOException io ? io : new IOException(cause);
        }
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new IssuerException(location + " answered " + response.statusCode());
        }
        return Optional.of(new String(response.body(), StandardCharsets.UTF_8));
    }

    private IssuerException fetchTooSlow(URI location) {
        return new IssuerException(location + " did not send its whole answer within the fetch's "
                + requestTimeout.toMillis() + " ms");
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /**
     * A response body of at most {@link #MAX_DOCUMENT_BYTES}: one that says it is longer is refused before a byte is
     * read, and one that turns out longer is refused, and no longer read, at the byte past the limit.
     */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final boolean declaredTooLarge;
        private Flow.Subscription subscription;

        LimitedBody(java.util.OptionalLong declaredLength) {
            this.declaredTooLarge = declaredLength.isPresent() && declaredLength.getAsLong() > MAX_DOCUMENT_BYTES;
        }

        @Override
        public CompletableFuture<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription given) {
            subscription = given;
            if (declaredTooLarge) {
                refuse();
            } else {
                given.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (body.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                if (received.size() + buffer.remaining() > MAX_DOCUMENT_BYTES) {
                    refuse();
                    return;
                }
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                received.writeBytes(bytes);
            }
        }

        @Override
        public void onError(Throwable failure) {
            body.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            body.complete(received.toByteArray());
        }

        private void refuse() {
            subscription.cancel();
            body.completeExceptionally(new TooLargeException());
        }
    }

    /** A document past {@link #MAX_DOCUMENT_BYTES}. */
    private static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
    }

    /** The provider answered, but not with what an issuer must publish. */
    private static final class IssuerException extends Exception {
        private static final long serialVersionUID = 1L;

        IssuerException(String message) {
            super(message, null, false, false);
        }
    }
}
