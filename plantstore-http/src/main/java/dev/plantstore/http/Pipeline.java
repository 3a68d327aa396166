package dev.plantstore.http;

import static dev.plantstore.http.GuardedHandler.guard;

import dev.plantstore.core.ApiError;
import dev.plantstore.core.PlantStore;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a request passes through, in order, from the socket to the store and back. This class is the one place
 * that order is decided: every handler, before-handler, route and logger below is registered here and nowhere else,
 * and the Jetty handlers are nested by one callback, in the order of the list. A mark says who gets each step:
 * <b>M</b> every server the API is mounted on ({@link PlantStoreApi#mount(JavalinConfig)}), <b>P</b> also
 * {@link PlantStoreApi#mount(JavalinConfig, ClientLimits)} and the standalone server, <b>S</b> the standalone server
 * ({@link PlantStoreServer}) only.
 *
 * <pre>
 *  client
 *    |  the connector: strict HTTP/1.1 parsing and URIs (P), at most maxConnections open (P, NetworkConnectionLimit),
 *    |  a request head complete within headerTimeout (P, HeaderTimeout), the idle time-out (P)
 *    |  a request Jetty cannot parse goes straight to the error handler (S: JsonErrorHandler) and the access line
 *    v
 *  Jetty handlers, outermost first
 *    1 GracefulStopHandler   S  the request counts as in flight from its headers on; 503 once the server stops
 *    2 TransferCodings       P  501 for a Transfer-Encoding other than chunked, before anything reads the body
 *    3 BodyBeforeHandler     P  an admitted create's body, read ahead without a thread; asks BearerAuth (step 9)
 *    4 RequestIds            M  X-Request-Id on the response, requestId in the MDC, for everything inside
 *    5 MethodOverrides       M  400 for X-HTTP-Method-Override and the like
 *      (the host application's own Jetty handlers, when mounted)
 *    6 Javalin
 *  Javalin before-handlers, in this order
 *    7 SecurityHeaders       S  every path; when mounted, the gate (9) and the API's other responses set them
 *    8 Cors                  M  /plants, /plants/*, /openapi.*, for the listed origins: answers a preflight
 *    9 the gate              M  /plants, /plants/*: BearerAuth, which judges the credentials once per request
 *                               (step 3 may have asked already): 429, 400, 401, 403 or 503, else the caller is known;
 *                               refused tokens count against the client (ClientAddresses: the peer, or from a trusted
 *                               proxy the client it names), found once per request
 *  The route (AllowedMethods: 405 with Allow for any other method on a path the API owns)
 *   10 POST /plants          M  RequestBody (415, 413, 408) -> NewPlantDecoder (400) -> store.create -> 200 or 409
 *      DELETE /plants/{id}   M  PathId (400) -> store.delete -> 204 or 404
 *      the store             M  the API's PlantStore, timed by MeteredPlantStore when metrics are on
 *      /health*, /openapi.*, /docs  M  Health and ApiDocs, unless turned off; ApiDocs also not without its libraries
 *  The answer
 *   11 Json writes each body; GuardedHandler turns what a route throws into an Error body (400 to 503, 500)
 *   12 exception mappers     S  an Error body for Javalin's own answers (404 for an unmatched path), and a 500
 *                               for anything else a handler throws
 *   13 request loggers       M  HttpMetrics, when metrics are on; S the route template for the access line
 *   14 AccessLog             S  Jetty's request log: one line per exchange, once the response is complete, naming the
 *                               client as step 9 does
 * </pre>
 *
 * <p>What the standalone server adds besides is not part of a request's way: the stop (its time-out, drain) and
 * readiness are {@link PlantStoreServer}'s.
 */
final class Pipeline {

    private static final String COLLECTION = "/plants";
    private static final String ITEM = "/plants/{id}";
    private static final String DOCS_PATHS = "/openapi.yaml, /openapi.json, /docs";
    private static final OptionalLibrary[] DOCS_LIBRARIES = {
        OptionalLibrary.SWAGGER_UI, OptionalLibrary.JACKSON_YAML, OptionalLibrary.JACKSON_DATABIND};

    /** The embedder sees the API's lines under its public type. */
    private static final Logger LOG = LoggerFactory.getLogger(PlantStoreApi.class);

    /** The standalone server's part: its own error style, access log and stop, on a server that is the API's alone. */
    private record Standalone(Duration stopTimeout) {
    }

    private Pipeline() {
    }

    /** The API on an application someone else owns, with the protections {@code limits} brings, if any. */
    static void mount(PlantStoreApi api, JavalinConfig config, Optional<ClientLimits> limits) {
        mount(api, config, limits, OptionalLibrary.CLASS_PATH);
    }

    /** As above, finding the optional libraries with {@code libraries}: a test hides some this way. */
    static void mount(PlantStoreApi api, JavalinConfig config, Optional<ClientLimits> limits, ClassLoader libraries) {
        build(api, config, limits, Optional.empty(), libraries);
    }

    /**
     * The API as the standalone server: the API, the protections, and the server's own style; Jetty waits up to
     * {@code stopTimeout} for requests in flight when it stops.
     */
    static void standalone(PlantStoreApi api, JavalinConfig config, ClientLimits limits, Duration stopTimeout) {
        build(api, config, Optional.of(limits), Optional.of(new Standalone(stopTimeout)), OptionalLibrary.CLASS_PATH);
    }

    private static void build(PlantStoreApi api, JavalinConfig config, Optional<ClientLimits> limits,
                              Optional<Standalone> standalone, ClassLoader libraries) {
        // Before anything is registered: a mount that fails leaves the configuration as it was.
        boolean docs = switch (api.docs()) {
            case NEVER -> false;
            case ALWAYS -> {
                OptionalLibrary.require(libraries, "Serving the API's documents (" + DOCS_PATHS + "), asked for with "
                        + "withDocs(true),", "call withDocs(false)", DOCS_LIBRARIES);
                yield true;
            }
            case WHEN_PRESENT -> docsLibrariesPresent(libraries);
        };
        var securityHeaders = standalone.isPresent()
                ? SecurityHeaders.onEveryPath()
                : SecurityHeaders.onTheApisResponses();
        var auth = new BearerAuth(api.verifier(), api.authFailureLimit() == 0
                ? Optional.empty()
                : Optional.of(new AuthFailureLimiter(api.authFailureLimit(), System::nanoTime)), api.scopes(),
                api.clientAddresses());

        limits.ifPresent(given -> protectConnections(config, given));
        standalone.ifPresent(server -> config.jetty.modifyHttpConfiguration(http -> {
            http.setSendServerVersion(false);
            http.setSendXPoweredBy(false);
        }));
        // Steps 1 to 5, in one callback: the list is the order.
        Predicate<Request> readAhead = request -> isCreate(request)
                && auth.decisionFor(request) instanceof BearerAuth.Admitted;
        config.jetty.modifyServer(server -> {
            standalone.ifPresent(own -> ownServer(server, own, api.clientAddresses()));
            List<Handler.Wrapper> outermostFirst = new ArrayList<>();
            if (standalone.isPresent()) {
                outermostFirst.add(new GracefulStopHandler());
            }
            limits.ifPresent(given -> {
                outermostFirst.add(new TransferCodings());
                outermostFirst.add(BodyBeforeHandler.handler(api.maxBodyBytes(), given.minBodyBytesPerSecond(),
                        readAhead));
            });
            outermostFirst.add(new RequestIds());
            outermostFirst.add(new MethodOverrides());
            nest(server, outermostFirst);
        });

        // Steps 7 to 9. One before-handler per path, not one per concern: Javalin matches each against the path on
        // every request.
        securityHeaders.beforeEveryPath().ifPresent(config.routes::before);
        if (!api.corsOrigins().isEmpty()) {
            config.routes.before(COLLECTION, new Cors(api.corsOrigins(), HandlerType.POST, securityHeaders));
            config.routes.before(COLLECTION + "/*", new Cors(api.corsOrigins(), HandlerType.DELETE, securityHeaders));
            config.routes.before("/openapi.json", new Cors(api.corsOrigins(), HandlerType.GET, securityHeaders));
            config.routes.before("/openapi.yaml", new Cors(api.corsOrigins(), HandlerType.GET, securityHeaders));
        }
        var gate = guard(ctx -> {
            securityHeaders.onApiResponse(ctx);
            auth.handle(ctx);
        });
        config.routes.before(COLLECTION, gate);
        config.routes.before(COLLECTION + "/*", gate);

        // Step 10. Micrometer is an optional dependency: its classes are touched only when metrics are on.
        PlantStore store = api.store();
        if (api.metrics().isPresent()) {
            MeterRegistry registry = api.metrics().get();
            HttpMetrics.bind(config, registry);
            store = new MeteredPlantStore(store, registry);
        }
        var routes = new PlantRoutes(store, api.maxBodyBytes());
        AllowedMethods.only(config, COLLECTION, HandlerType.POST, guard(routes::create), securityHeaders);
        AllowedMethods.only(config, ITEM, HandlerType.DELETE, guard(routes::delete), securityHeaders);
        api.readiness().ifPresent(ready -> Health.mount(config, ready, securityHeaders));
        if (docs) {
            ApiDocs.load(api.readiness().isPresent(), api.documentedIssuer()
                    .map(issuer -> new ApiDocs.IdentityProvider(issuer, api.scopes())), securityHeaders).mount(config);
        }

        // Steps 12 to 14.
        if (standalone.isPresent()) {
            config.routes.exception(HttpResponseException.class,
                    (e, ctx) -> Json.respond(ctx, new ApiError(e.getStatus(), describe(e, ctx))));
            config.routes.exception(Exception.class, (e, ctx) -> GuardedHandler.respondInternalError(ctx, e));
            config.requestLogger.http((ctx, millis) ->
                    ctx.req().setAttribute(AccessLog.ROUTE_ATTRIBUTE, RouteTemplate.of(ctx)));
        }
    }

    /**
     * Whether the documents' libraries are all there. A minimal application lacks them: the API is served without
     * the documents, and one line says what to add, rather than the default failing the mount.
     */
    private static boolean docsLibrariesPresent(ClassLoader libraries) {
        List<String> missing = OptionalLibrary.missing(libraries, DOCS_LIBRARIES);
        if (missing.isEmpty()) {
            return true;
        }
        LOG.info("The API's documents ({}) are off: they need {} on the class path, which plantstore-http declares "
                + "optional. Add {} to your dependencies to serve them, or call withDocs(false) to turn them off "
                + "without this line.", DOCS_PATHS, String.join(" and ", missing), missing.size() == 1 ? "it" : "them");
        return false;
    }

    /** The connector's part of {@link ClientLimits}: parsing, the number of connections, and their time-outs. */
    private static void protectConnections(JavalinConfig config, ClientLimits limits) {
        config.jetty.modifyHttpConfiguration(Pipeline::strict);
        config.jetty.modifyServer(server -> {
            server.addBean(new NetworkConnectionLimit(limits.maxConnections(), server));
            server.addBean(new HeaderTimeout(server, limits.headerTimeout()));
        });
        // Javalin creates its connector after the server callbacks run, and fires this event before starting Jetty.
        var server = new AtomicReference<Server>();
        config.jetty.modifyServer(server::set);
        config.events.serverStarting(() -> {
            for (Connector connector : server.get().getConnectors()) {
                if (connector instanceof AbstractConnector timed) {
                    timed.setIdleTimeout(limits.idleTimeout().toMillis());
                }
            }
        });
    }

    /** The standalone server's own: the error style, the access log, the stop; Javalin's statistics are unread. */
    private static void ownServer(Server server, Standalone standalone, ClientAddresses clients) {
        server.setHandler((Handler) null);
        server.setStopTimeout(standalone.stopTimeout().toMillis());
        server.setErrorHandler(new JsonErrorHandler());
        server.setRequestLog(new AccessLog(clients));
    }

    /**
     * Nests {@code outermostFirst} in that order around whatever handler the server has now (none on the standalone
     * server). Javalin then nests itself innermost.
     */
    private static void nest(Server server, List<Handler.Wrapper> outermostFirst) {
        Handler inner = server.getHandler();
        for (int i = outermostFirst.size() - 1; i >= 0; i--) {
            Handler.Wrapper wrapper = outermostFirst.get(i);
            wrapper.setHandler(inner);
            inner = wrapper;
        }
        server.setHandler(inner);
    }

    /**
     * RFC 9112 as written: Jetty's RFC 9110 mode still lets a bare LF end a header line, which a proxy in front may
     * read as part of the line, and so see other headers than the server does. Jetty's default URI compliance refuses
     * ambiguous paths (an encoded slash, encoded dot segments) that Javalin's legacy setting lets through.
     */
    static void strict(HttpConfiguration http) {
        http.setHttpCompliance(HttpCompliance.RFC9110.without("RFC9110_CRLF",
                HttpCompliance.Violation.LF_HEADER_TERMINATION));
        http.setUriCompliance(UriCompliance.DEFAULT);
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

    private static String describe(HttpResponseException e, Context ctx) {
        return e.getStatus() == 404 ? "no such resource: " + ctx.method().name() + " " + ctx.path() : e.getMessage();
    }
}
