package dev.plantstore.http;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import io.javalin.config.JavalinConfig;
import io.javalin.config.JavalinState;
import io.javalin.http.Context;
import io.javalin.plugin.Plugin;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The Plant Store API, ready to mount onto a Javalin application you own. {@link #mount(JavalinConfig)} adds the
 * API's routes with their bearer check, {@link Health} and the API document unless turned off, CORS and metrics when
 * asked, and two Jetty handlers around the whole server (request ids, method overrides refused); docs/library.md's
 * "What mount gives" table says what each adds and what only {@link PlantStoreServer} does. Immutable, thread-safe.
 *
 * <pre>{@code
 * var api = PlantStoreApi.of(PlantStores.inMemory(), TokenVerifier.staticTokens(List.of(token)));
 * Javalin.create(config -> api.mount(config)).start(8080);
 * }</pre>
 */
public final class PlantStoreApi extends Plugin<Void> {

    /** The request body limit unless {@link #withMaxBodyBytes} says otherwise: 64 KiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = ApiSettings.MAX_BODY_BYTES;

    /** Refused tokens a client address may send per minute unless {@link #withAuthFailureLimit} says otherwise. */
    public static final int DEFAULT_AUTH_FAILURE_LIMIT = ApiSettings.AUTH_FAILURE_LIMIT;

    /** The scope a token must grant to create plants unless {@link #withScopes} says otherwise. */
    public static final String DEFAULT_CREATE_SCOPE = ApiSettings.CREATE_SCOPE;

    /** The scope a token must grant to delete plants unless {@link #withScopes} says otherwise. */
    public static final String DEFAULT_DELETE_SCOPE = ApiSettings.DELETE_SCOPE;

    private final ApiSettings settings;

    private PlantStoreApi(ApiSettings settings) {
        this.settings = settings;
    }

    /** A copy with what {@code change} sets. */
    private PlantStoreApi with(Consumer<ApiSettings.Changes> change) {
        return new PlantStoreApi(settings.with(change));
    }

    /** The API over this store, admitting requests whose bearer token the verifier accepts. */
    public static PlantStoreApi of(PlantStore store, TokenVerifier verifier) {
        return new PlantStoreApi(ApiSettings.of(store, verifier));
    }

    /** A copy with another request body limit; a larger body is answered with 413. */
    public PlantStoreApi withMaxBodyBytes(int maxBodyBytes) {
        return with(changes -> changes.maxBodyBytes = maxBodyBytes);
    }

    /**
     * A copy that does, or does not, serve the OpenAPI document ({@code GET /openapi.yaml}, {@code GET /openapi.json})
     * and Swagger UI ({@code GET /docs}), none of which needs a token. They need two libraries that
     * {@code plantstore-http} declares optional, {@code org.webjars:swagger-ui} and
     * {@code com.fasterxml.jackson.dataformat:jackson-dataformat-yaml}. Unless this is called, they are served when
     * both are on the class path, and otherwise left out with one INFO line from {@link #mount} naming what to add.
     * With {@code withDocs(true)}, {@link #mount} fails if either is missing, and says which.
     */
    public PlantStoreApi withDocs(boolean docs) {
        var served = docs ? ApiSettings.DocsServed.ALWAYS : ApiSettings.DocsServed.NEVER;
        return with(changes -> changes.docs = served);
    }

    /**
     * A copy whose OpenAPI document says that tokens also come from this OpenID Connect issuer: a security scheme of
     * type {@code openIdConnect} at its discovery address, required with the create scope by the create and with the
     * delete scope by the delete (see {@link #withScopes}). It changes the document only; the verifier decides which
     * tokens are accepted.
     */
    public PlantStoreApi withDocumentedIssuer(URI issuer) {
        Optional<URI> documented = Optional.of(issuer);
        return with(changes -> changes.documentedIssuer = documented);
    }

    /**
     * A copy that lets pages from these origins ({@code https://docs.example.com}, or {@code *} for any) call the API
     * from a browser: CORS headers on the API and the document, preflights answered without a token. None by default.
     *
     * @throws IllegalArgumentException when an origin is not a scheme, host and optional port, or {@code *}
     */
    public PlantStoreApi withCorsOrigins(Collection<String> origins) {
        Set<String> copied = Set.copyOf(origins);
        return with(changes -> changes.corsOrigins = copied);
    }

    /**
     * A copy that lets each client address send at most {@code perMinute} refused tokens a minute; past that, its
     * requests get 429 with {@code Retry-After} until the minute is over. 0 turns the limit off. Behind a proxy every
     * client shares the proxy's address unless {@link #withTrustedProxies} names the proxy; an IPv6 client is counted
     * by its /64.
     */
    public PlantStoreApi withAuthFailureLimit(int perMinute) {
        return with(changes -> changes.authFailureLimit = perMinute);
    }

    /**
     * A copy that takes a request's client to be the one a trusted reverse proxy names, for the refused-token limit
     * ({@link #withAuthFailureLimit}) and the access line: from a peer whose address is in one of {@code proxies}
     * (each an address, {@code 10.0.0.5}, or a CIDR block, {@code 10.0.0.0/8}, {@code 2001:db8::/32}), the client is
     * the right-most address of {@code X-Forwarded-For} that is not itself a trusted proxy, or, without that header,
     * the same of the {@code for=} parameters of {@code Forwarded} (RFC 7239). From any other peer those headers are
     * ignored. None by default: every client is its peer. Name only proxies you run, and let each append the address
     * it saw to the header (nginx's {@code $proxy_add_x_forwarded_for}, HAProxy's {@code option forwardfor}); one
     * that writes {@code Forwarded} must also remove a client's {@code X-Forwarded-For}, which is read first.
     * Whatever the peer, IPv6 clients are limited by their /64.
     *
     * @throws IllegalArgumentException when an entry is neither an IP address nor a CIDR block
     */
    public PlantStoreApi withTrustedProxies(Collection<String> proxies) {
        ClientAddresses trusted = ClientAddresses.trusting(Objects.requireNonNull(proxies, "null proxies"));
        return with(changes -> changes.clientAddresses = trusted);
    }

    /**
     * A copy whose create needs a token granting {@code createScope}, and whose delete one granting
     * {@code deleteScope}; a valid token without it is answered 403 {@code insufficient_scope}. Static tokens grant
     * every scope.
     *
     * @throws IllegalArgumentException when a scope is not printable ASCII without space, quote or backslash
     */
    public PlantStoreApi withScopes(String createScope, String deleteScope) {
        var scopes = new BearerAuth.Scopes(createScope, deleteScope);
        return with(changes -> changes.scopes = scopes);
    }

    /**
     * {@code origin}, checked as {@link #withCorsOrigins} checks each, for a caller that reads its settings before it
     * has a store.
     *
     * @throws IllegalArgumentException when it is not a scheme, host and optional port, or {@code *}
     */
    public static String requireCorsOrigin(String origin) {
        Cors.requireValidOrigin(Objects.requireNonNull(origin, "null origin"));
        return origin;
    }

    /**
     * {@code proxy}, checked as {@link #withTrustedProxies} checks each, for a caller that reads its settings before
     * it has a store.
     *
     * @throws IllegalArgumentException when it is neither an IP address nor a CIDR block
     */
    public static String requireTrustedProxy(String proxy) {
        ClientAddresses.trusting(List.of(Objects.requireNonNull(proxy, "null proxy")));
        return proxy;
    }

    /**
     * {@code scope}, checked as {@link #withScopes} checks each, for a caller that reads its settings before it has a
     * store.
     *
     * @throws IllegalArgumentException when it is not printable ASCII without space, quote or backslash
     */
    public static String requireScope(String scope) {
        BearerAuth.Scopes.requireScopeToken(Objects.requireNonNull(scope, "null scope"));
        return scope;
    }

    /**
     * Who the request {@code ctx} serves was admitted as (the token's principal and scopes), for a handler of your
     * own on a path under {@code /plants}, which the API's authentication guards; empty elsewhere.
     */
    public static Optional<Verification.Valid> caller(Context ctx) {
        return Exchange.existing(ctx).flatMap(Exchange::caller);
    }

    /**
     * A copy that records metrics in {@code registry} (Micrometer; for Prometheus, a {@code PrometheusMeterRegistry}):
     * <ul>
     *   <li>{@code http.server.requests}: a timer of every request by {@code method} (one of HTTP's own, or
     *       {@code OTHER} for any other token a client sends), {@code route} (the route
     *       template such as {@code /plants/{id}}; the before-handler's {@code /plants} or {@code /plants/*} for a
     *       request refused before its route, such as a 401; {@code unmatched} for a 404; never the raw path) and
     *       {@code status}, with latency buckets from 1 ms to 10 s;</li>
     *   <li>{@code plantstore.requests.refused}: a counter by {@code reason}: {@code bad_request} (400),
     *       {@code unauthorized} (401), {@code body_too_large} (413), {@code unsupported_media_type} (415),
     *       {@code too_many_refused_tokens} (429);</li>
     *   <li>{@code plantstore.tokens.refused}: a counter of bearer tokens refused once read, by {@code reason}: for a
     *       401 the verifier's {@link Verification.Reason} in lower case ({@code unknown_token}, {@code expired},
     *       {@code signature}...), {@code insufficient_scope} (403), {@code keys_unavailable} (503, an identity
     *       provider's keys could not be had);</li>
     *   <li>{@code plantstore.store.operations}: a timer of store creates and deletes by {@code operation} and
     *       {@code outcome} ({@code created}, {@code already_stored}, {@code duplicate}, {@code deleted},
     *       {@code absent}, {@code unavailable}, {@code failed});</li>
     *   <li>Jetty's connections ({@code jetty.connections.*}) and thread pool ({@code jetty.threads.*}), through
     *       Micrometer's Jetty binders, for the server the API is mounted on.</li>
     * </ul>
     * JVM metrics are the application's to bind, with Micrometer's JVM binders. None are recorded by default.
     * Micrometer ({@code io.micrometer:micrometer-core}) is a dependency that {@code plantstore-http} declares
     * optional: an application with a registry to pass has it, and without metrics none of its classes is loaded.
     */
    public PlantStoreApi withMetrics(MeterRegistry registry) {
        Optional<MeterRegistry> metrics = Optional.of(registry);
        return with(changes -> changes.metrics = metrics);
    }

    /**
     * A copy that traces each request with {@code openTelemetry}, the application's own: a server span per request,
     * named by its route ({@code POST /plants}, {@code DELETE /plants/{id}}); under it a span for the store's write,
     * the wait for and the time in its group commit; the outcome ({@code created}, {@code already_stored},
     * {@code duplicate}, {@code deleted}, {@code absent}, {@code unavailable}, {@code failed}) on both, and the
     * caller's name on the server span, never a token. A create or delete whose token is admitted continues the
     * caller's W3C {@code traceparent} and {@code tracestate} (a malformed one starts a new trace); any other
     * request, refused or needing no token, starts a trace of its own whatever it sends, so that a caller without a
     * valid token decides no sampling and puts nothing in the store. The write's trace context is kept with its
     * webhook events, whose deliveries join the trace. The span's trace and span ids go into the SLF4J MDC
     * ({@value LogFields#TRACE_ID}, {@value LogFields#SPAN_ID}) while the request is served.
     * Untraced unless this is called. The health routes' requests are not traced unless {@link #withHealthTraced}
     * asks.
     */
    public PlantStoreApi withTracing(OpenTelemetry openTelemetry) {
        Optional<OpenTelemetry> tracing = Optional.of(openTelemetry);
        return with(changes -> changes.tracing = tracing);
    }

    /**
     * A copy that does, or does not, trace the requests for the {@link Health} routes, when {@link #withTracing}
     * traces the others. Not by default: a load balancer probing every second would make a trace a second.
     */
    public PlantStoreApi withHealthTraced(boolean traced) {
        return with(changes -> changes.healthTraced = traced);
    }

    /**
     * A copy that does, or does not, serve the {@link Health} routes: {@code GET /health/live}, and
     * {@code GET /health/ready} and {@code GET /health}, which answer 503 while the store is unavailable. None needs a
     * token. They are served unless turned off here, and the OpenAPI document lists them exactly when they are.
     */
    public PlantStoreApi withHealth(boolean health) {
        return withReadiness(health ? Optional.of(settings.store()::isAvailable) : Optional.empty());
    }

    /** A copy whose health routes answer {@code ready}, which must answer quickly and never throw. */
    PlantStoreApi withReadiness(BooleanSupplier ready) {
        return withReadiness(Optional.of(ready));
    }

    private PlantStoreApi withReadiness(Optional<BooleanSupplier> ready) {
        return with(changes -> changes.readiness = ready);
    }

    PlantStore store() {
        return settings.store();
    }

    ApiSettings settings() {
        return settings;
    }

    /** As {@link #mount(JavalinConfig)}, when the application registers the API as its plugin. */
    @Override
    public void onInitialize(JavalinState state) {
        mount(new JavalinConfig(state));
    }

    /**
     * Adds the API to the application {@code config} builds: its routes and their authentication, and the Jetty
     * handlers it needs around the whole server (request ids, the refusal of method overrides, and with tracing the
     * server spans). Call once per application, after replacing the server's handler if you do.
     *
     * @throws IllegalStateException when {@code withDocs(true)} asked for the documents and a library they need is
     *                               missing; by default, the documents are left out then, and a line says so
     */
    public void mount(JavalinConfig config) {
        Pipeline.mount(settings, config, Optional.empty(), OptionalLibrary.CLASS_PATH);
    }

    /**
     * As {@link #mount(JavalinConfig)}, with the standalone server's protections against slow, stalled and too many
     * clients, for the whole server: strict HTTP/1.1 parsing, {@code limits} on connections (their number, idle time,
     * the time to send a request's head), a create's body read ahead without a thread at the minimum rate, and 501 for
     * a transfer coding other than chunked (answered before the request is given its id). They apply to every
     * connection and route of the application, yours included: call this instead of the other {@code mount} only when
     * your server has no such settings of its own.
     *
     * @throws IllegalStateException when {@code withDocs(true)} asked for the documents and a library they need is
     *                               missing
     */
    public void mount(JavalinConfig config, ClientLimits limits) {
        Pipeline.mount(settings, config, Optional.of(Objects.requireNonNull(limits, "null limits")),
                OptionalLibrary.CLASS_PATH);
    }
}
