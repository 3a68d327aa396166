package dev.plantstore.http;

import static dev.plantstore.http.GuardedHandler.guard;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jetty.JettyConnectionMetrics;
import io.micrometer.core.instrument.binder.jetty.JettyServerThreadPoolMetrics;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;

/**
 * The Plant Store API, ready to mount onto a Javalin application you own:
 *
 * <pre>{@code
 * var api = PlantStoreApi.of(PlantStore.inMemory(), TokenVerifier.staticTokens(List.of(token)));
 * Javalin.create(config -> {
 *     api.mount(config);
 *     config.routes.get("/", ctx -> ctx.result("my own routes stay mine"));
 * }).start(8080);
 * }</pre>
 *
 * <p>{@link #mount} adds {@code POST /plants}, {@code DELETE /plants/{id}}, a 405 with an {@code Allow} header for
 * every other method on those paths, an {@code X-Request-Id} on every response of the server (see below), a
 * bearer-token before-handler on {@code /plants} and everything under it, the {@link Health} routes
 * ({@code /health}, {@code /health/ready}, {@code /health/live}) unless {@link #withHealth} turns them off, the
 * OpenAPI document and Swagger UI unless {@link #withDocs} turns them off, and CORS for the origins
 * {@link #withCorsOrigins} lists.
 * It installs no global exception or error handler: every response of its routes, errors included, is written by the
 * routes themselves as the interface's Error body; a {@link dev.plantstore.core.StoreUnavailableException} from the
 * store is a 503.
 *
 * <p>Every request gets an id: its {@code X-Request-Id} header when that is 1 to 128 visible ASCII characters, else a
 * generated one. The id is sent back in {@code X-Request-Id}, is in the SLF4J MDC under {@code requestId} while the
 * request is served (for a log pattern's {@code %X{requestId}}), and is the reference a 500 gives. {@link #mount}
 * installs this as a Jetty handler around the whole server, so call it after replacing the server's handler, if you
 * do. Inside it, a second one refuses with 400 any request carrying a method-override header
 * ({@code X-HTTP-Method-Override} and the like), on every path: Javalin would route such a request by the header
 * rather than by its request line, past a proxy that filters by method. Immutable and thread-safe.
 */
public final class PlantStoreApi {

    /** The request body limit unless {@link #withMaxBodyBytes} says otherwise: 64 KiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    /** Refused tokens a client address may send per minute unless {@link #withAuthFailureLimit} says otherwise. */
    public static final int DEFAULT_AUTH_FAILURE_LIMIT = 30;

    /** The scope a token must grant to create plants unless {@link #withScopes} says otherwise. */
    public static final String DEFAULT_CREATE_SCOPE = "plants:create";

    /** The scope a token must grant to delete plants unless {@link #withScopes} says otherwise. */
    public static final String DEFAULT_DELETE_SCOPE = "plants:delete";

    private static final String COLLECTION = "/plants";
    private static final String ITEM = "/plants/{id}";

    private final PlantStore store;
    private final TokenVerifier verifier;
    private final int maxBodyBytes;
    private final boolean docs;
    private final Set<String> corsOrigins;
    private final int authFailureLimit;
    private final Optional<MeterRegistry> metrics;
    /** What the health routes answer; none are mounted when empty. */
    private final Optional<BooleanSupplier> readiness;
    private final BearerAuth.Scopes scopes;

    private PlantStoreApi(PlantStore store, TokenVerifier verifier, int maxBodyBytes, boolean docs,
                          Set<String> corsOrigins, int authFailureLimit, Optional<MeterRegistry> metrics,
                          Optional<BooleanSupplier> readiness, BearerAuth.Scopes scopes) {
        this.store = Objects.requireNonNull(store, "null store");
        this.verifier = Objects.requireNonNull(verifier, "null verifier");
        if (maxBodyBytes < 1 || maxBodyBytes == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxBodyBytes must be between 1 and " + (Integer.MAX_VALUE - 1));
        }
        this.maxBodyBytes = maxBodyBytes;
        this.docs = docs;
        corsOrigins.forEach(Cors::requireValidOrigin);
        this.corsOrigins = Set.copyOf(corsOrigins);
        if (authFailureLimit < 0) {
            throw new IllegalArgumentException("authFailureLimit must not be negative");
        }
        this.authFailureLimit = authFailureLimit;
        this.metrics = metrics;
        this.readiness = readiness;
        this.scopes = Objects.requireNonNull(scopes, "null scopes");
    }

    /** The API over this store, admitting requests whose bearer token the verifier accepts. */
    public static PlantStoreApi of(PlantStore store, TokenVerifier verifier) {
        return new PlantStoreApi(store, verifier, DEFAULT_MAX_BODY_BYTES, true, Set.of(), DEFAULT_AUTH_FAILURE_LIMIT,
                Optional.empty(), Optional.of(store::isAvailable),
                new BearerAuth.Scopes(DEFAULT_CREATE_SCOPE, DEFAULT_DELETE_SCOPE));
    }

    /** A copy with another request body limit; a larger body is answered with 413. */
    public PlantStoreApi withMaxBodyBytes(int maxBodyBytes) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, corsOrigins, authFailureLimit, metrics, readiness,
                scopes);
    }

    /**
     * A copy that does, or does not, serve the OpenAPI document ({@code GET /openapi.yaml}, {@code GET /openapi.json})
     * and Swagger UI ({@code GET /docs}), none of which needs a token. They are served unless turned off here.
     */
    public PlantStoreApi withDocs(boolean docs) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, corsOrigins, authFailureLimit, metrics, readiness,
                scopes);
    }

    /**
     * A copy that lets pages from these origins ({@code https://docs.example.com}, or {@code *} for any) call the API
     * from a browser: CORS headers on the API and the document, preflights answered without a token. None by default.
     *
     * @throws IllegalArgumentException when an origin is not a scheme, host and optional port, or {@code *}
     */
    public PlantStoreApi withCorsOrigins(Collection<String> origins) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, Set.copyOf(origins), authFailureLimit, metrics,
                readiness, scopes);
    }

    /**
     * A copy that lets each client address send at most {@code perMinute} refused tokens a minute; past that, its
     * requests get 429 with {@code Retry-After} until the minute is over. 0 turns the limit off. Behind a proxy every
     * client shares the proxy's address: raise the limit there, or limit at the proxy.
     */
    public PlantStoreApi withAuthFailureLimit(int perMinute) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, corsOrigins, perMinute, metrics, readiness,
                scopes);
    }

    /**
     * A copy whose create needs a token granting {@code createScope}, and whose delete one granting
     * {@code deleteScope}; a valid token without it is answered 403 {@code insufficient_scope}. Static tokens grant
     * every scope.
     *
     * @throws IllegalArgumentException when a scope is empty or holds a space, a quote or a backslash
     */
    public PlantStoreApi withScopes(String createScope, String deleteScope) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, corsOrigins, authFailureLimit, metrics, readiness,
                new BearerAuth.Scopes(createScope, deleteScope));
    }

    /**
     * Who the request {@code ctx} serves was admitted as (the token's principal and scopes), for a handler of your
     * own on a path under {@code /plants}, which the API's authentication guards; empty elsewhere.
     */
    public static Optional<Verification.Valid> caller(Context ctx) {
        return BearerAuth.caller(ctx);
    }

    /**
     * A copy that records metrics in {@code registry} (Micrometer; for Prometheus, a {@code PrometheusMeterRegistry}):
     * <ul>
     *   <li>{@code http.server.requests}: a timer of every request by {@code method} (one of HTTP's own, or
     *       {@code OTHER} for any other token a client sends), {@code route} (the route
     *       template such as {@code /plants/{id}}; the before-handler's {@code /plants} or {@code /plants/*} for a request
     *       refused before its route, such as a 401; {@code unmatched} for a 404; never the raw path) and {@code status}, with
     *       latency buckets from 1 ms to 10 s;</li>
     *   <li>{@code plantstore.requests.refused}: a counter by {@code reason}: {@code bad_request} (400),
     *       {@code unauthorized} (401), {@code body_too_large} (413), {@code unsupported_media_type} (415),
     *       {@code too_many_refused_tokens} (429);</li>
     *   <li>{@code plantstore.tokens.refused}: a counter of bearer tokens refused once read, by {@code reason}:
     *       {@code invalid_token} (401), {@code insufficient_scope} (403), {@code keys_unavailable} (503, an identity
     *       provider's keys could not be had);</li>
     *   <li>{@code plantstore.store.operations}: a timer of store creates and deletes by {@code operation} and
     *       {@code outcome} ({@code created}, {@code already_stored}, {@code duplicate}, {@code deleted},
     *       {@code absent}, {@code unavailable}, {@code failed});</li>
     *   <li>Jetty's connections ({@code jetty.connections.*}) and thread pool ({@code jetty.threads.*}), through
     *       Micrometer's Jetty binders, for the server the API is mounted on.</li>
     * </ul>
     * JVM metrics are the application's to bind, with Micrometer's JVM binders. None are recorded by default.
     */
    public PlantStoreApi withMetrics(MeterRegistry registry) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, corsOrigins, authFailureLimit,
                Optional.of(registry), readiness, scopes);
    }

    /**
     * A copy that does, or does not, serve the {@link Health} routes: {@code GET /health/live}, and
     * {@code GET /health/ready} and {@code GET /health}, which answer 503 while the store is unavailable. None needs a
     * token. They are served unless turned off here, and the OpenAPI document lists them exactly when they are.
     */
    public PlantStoreApi withHealth(boolean health) {
        return withReadiness(health ? Optional.of(store::isAvailable) : Optional.empty());
    }

    /** A copy whose health routes answer {@code ready}, which must answer quickly and never throw. */
    PlantStoreApi withReadiness(BooleanSupplier ready) {
        return withReadiness(Optional.of(ready));
    }

    private PlantStoreApi withReadiness(Optional<BooleanSupplier> ready) {
        return new PlantStoreApi(store, verifier, maxBodyBytes, docs, corsOrigins, authFailureLimit, metrics, ready,
                scopes);
    }

    PlantStore store() {
        return store;
    }

    int maxBodyBytes() {
        return maxBodyBytes;
    }

    /** Adds the API's routes and its authentication to {@code config}. Call once per application. */
    public void mount(JavalinConfig config) {
        install(config);
    }

    /**
     * As {@link #mount}, and answers which requests' bodies the standalone server may read ahead: a create whose
     * credentials the API admits. It asks the same authentication the routes ask, which decides once per request.
     */
    Predicate<Request> install(JavalinConfig config) {
        // Outermost, so that the id is set for the whole exchange: the routes, an error response, the request log.
        config.jetty.modifyServer(server -> {
            server.insertHandler(new MethodOverrides());
            server.insertHandler(new RequestIds());
        });
        if (!corsOrigins.isEmpty()) {
            config.routes.before(COLLECTION, new Cors(corsOrigins, HandlerType.POST));
            config.routes.before(COLLECTION + "/*", new Cors(corsOrigins, HandlerType.DELETE));
            config.routes.before("/openapi.json", new Cors(corsOrigins, HandlerType.GET));
            config.routes.before("/openapi.yaml", new Cors(corsOrigins, HandlerType.GET));
        }
        Optional<AuthFailureLimiter> limiter = authFailureLimit == 0
                ? Optional.empty()
                : Optional.of(new AuthFailureLimiter(authFailureLimit, System::nanoTime));
        // One before-handler per path, not one per concern: Javalin matches each against the path on every request.
        var securityHeaders = new SecurityHeaders();
        var auth = new BearerAuth(verifier, limiter, scopes);
        var gate = guard(ctx -> {
            securityHeaders.handle(ctx);
            auth.handle(ctx);
        });
        config.routes.before(COLLECTION, gate);
        config.routes.before(COLLECTION + "/*", gate);

        metrics.ifPresent(registry -> recordMetrics(config, registry));
        var routes = new PlantRoutes(metrics.<PlantStore>map(registry -> new MeteredPlantStore(store, registry))
                .orElse(store), maxBodyBytes);
        AllowedMethods.only(config, COLLECTION, HandlerType.POST, guard(routes::create));
        AllowedMethods.only(config, ITEM, HandlerType.DELETE, guard(routes::delete));
        readiness.ifPresent(ready -> Health.mount(config, ready));
        if (docs) {
            ApiDocs.load(readiness.isPresent()).mount(config);
        }
        return request -> isCreate(request) && auth.decisionFor(request) instanceof BearerAuth.Admitted;
    }

    /** {@code POST /plants}, the one route that takes a body; Javalin also routes {@code /plants/} to it. */
    private static boolean isCreate(Request request) {
        if (!HttpMethod.POST.is(request.getMethod())) {
            return false;
        }
        String path = Request.getPathInContext(request);
        return path.startsWith(COLLECTION)
                && (path.length() == COLLECTION.length() || path.length() == COLLECTION.length() + 1
                        && path.charAt(COLLECTION.length()) == '/');
    }

    private static void recordMetrics(JavalinConfig config, MeterRegistry registry) {
        config.requestLogger.http(new HttpMetrics(registry));
        // Javalin adds its connector after the server consumers run and fires this event before starting Jetty.
        var server = new AtomicReference<Server>();
        config.jetty.modifyServer(server::set);
        config.events.serverStarting(() -> {
            JettyConnectionMetrics.addToAllConnectors(server.get(), registry);
            new JettyServerThreadPoolMetrics(server.get().getThreadPool(), List.of()).bindTo(registry);
        });
    }
}
