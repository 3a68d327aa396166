package dev.plantstore.http;

import static dev.plantstore.http.GuardedHandler.guard;

import dev.plantstore.core.ApiError;
import dev.plantstore.core.PlantStore;
import dev.plantstore.http.Assembly.Audience;
import dev.plantstore.http.Assembly.Target;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;

/**
 * Everything a request passes through, in order, from the socket to the store and back, for every server this module
 * builds. The order is {@link #STEPS}, one list of data, and one loop installs it: nothing else registers a handler,
 * before-handler, route or logger. Each step says who gets it ({@link Audience}): an application the API is
 * mounted on, one mounted with {@link ClientLimits}, the standalone server ({@code PlantStoreServer}), a management
 * port ({@code ManagementPort}). {@code docs/request-path.md} says what each step does; a test keeps its table's names,
 * audiences and order those of this list.
 *
 * <p>What the standalone server adds besides is not part of a request's way: readiness and its drain are
 * {@code PlantStoreServer}'s.
 */
final class Pipeline {

    private static final String DOCS_PATHS = "/openapi.yaml, /openapi.json, /docs";
    private static final OptionalLibrary[] DOCS_LIBRARIES = {
        OptionalLibrary.SWAGGER_UI, OptionalLibrary.JACKSON_YAML, OptionalLibrary.JACKSON_DATABIND};


    /** Where on a request's way a step sits: server, Jetty's handlers, Javalin's before-handlers, routes, answer. */
    enum Layer { SERVER, JETTY, BEFORE, ROUTES, ANSWER }

    /** One step: where it sits, its name, who gets it, and how it is installed; the page says what it does. */
    record Step(Layer layer, String name, Set<Audience> audiences, Consumer<Assembly> install) {
        Step {
            audiences = Set.copyOf(audiences);
        }
    }

    private static final Set<Audience> API = EnumSet.of(Audience.MOUNT, Audience.MOUNT_WITH_LIMITS,
            Audience.STANDALONE);
    private static final Set<Audience> WITH_LIMITS = EnumSet.of(Audience.MOUNT_WITH_LIMITS, Audience.STANDALONE);
    private static final Set<Audience> OWN_SERVER = EnumSet.of(Audience.STANDALONE, Audience.MANAGEMENT_PORT);

    static final List<Step> STEPS = List.of(
            new Step(Layer.SERVER, "connector", EnumSet.complementOf(EnumSet.of(Audience.MOUNT)), Pipeline::connector),
            new Step(Layer.SERVER, "JsonErrorHandler", OWN_SERVER,
                    assembly -> assembly.onServer(server -> server.setErrorHandler(new JsonErrorHandler()))),
            new Step(Layer.JETTY, "GracefulStopHandler", EnumSet.of(Audience.STANDALONE), Pipeline::gracefulStop),
            new Step(Layer.JETTY, "TransferCodings", WITH_LIMITS,
                    assembly -> assembly.handlers.add(new TransferCodings())),
            new Step(Layer.JETTY, "BodyBeforeHandler", WITH_LIMITS, Pipeline::readAhead),
            new Step(Layer.JETTY, "RequestIds", EnumSet.allOf(Audience.class),
                    assembly -> assembly.handlers.add(new RequestIds())),
            new Step(Layer.JETTY, "RequestSpans", API, Pipeline::requestSpans),
            new Step(Layer.JETTY, "OwnHosts", EnumSet.of(Audience.MANAGEMENT_PORT),
                    assembly -> assembly.handlers.add(new OwnHosts(assembly.target.ownHost().orElseThrow()))),
            new Step(Layer.JETTY, "MethodOverrides", API, assembly -> assembly.handlers.add(new MethodOverrides())),
            new Step(Layer.BEFORE, "SecurityHeaders", OWN_SERVER,
                    assembly -> assembly.config.routes.before(SecurityHeaders::onEveryPath)),
            new Step(Layer.BEFORE, "Cors", API, Pipeline::cors),
            new Step(Layer.BEFORE, "BearerAuth", API, Pipeline::gate),
            new Step(Layer.ROUTES, "PlantRoutes", API, Pipeline::plantRoutes),
            new Step(Layer.ROUTES, "Health", API,
                    assembly -> assembly.api().readiness().ifPresent(
                            ready -> Health.mount(assembly.config, ready))),
            new Step(Layer.ROUTES, "ApiDocs", API, Pipeline::apiDocs),
            new Step(Layer.ANSWER, "ErrorBodies", OWN_SERVER, Pipeline::errorBodies),
            new Step(Layer.ANSWER, "HttpMetrics", API, Pipeline::httpMetrics),
            new Step(Layer.ANSWER, "AccessLog", EnumSet.of(Audience.STANDALONE), Pipeline::accessLog));

    private Pipeline() {
    }

    /**
     * The API on an application someone else owns, with the protections {@code limits} brings, if any; the optional
     * libraries (the docs' and the metrics') are those {@code libraries} finds.
     */
    static void mount(ApiSettings api, JavalinConfig config, Optional<ClientLimits> limits, ClassLoader libraries) {
        mount(api, config, limits, libraries, Operations.PLANT_STORE);
    }

    /** As {@link #mount(ApiSettings, JavalinConfig, Optional, ClassLoader)}, serving {@code operations}. */
    static void mount(ApiSettings api, JavalinConfig config, Optional<ClientLimits> limits, ClassLoader libraries,
            Operations operations) {
        var audience = limits.isPresent() ? Audience.MOUNT_WITH_LIMITS : Audience.MOUNT;
        install(new Target(audience, Optional.of(api), limits, Optional.empty(), Optional.empty()), config, libraries,
                operations);
    }

    /**
     * The API as the standalone server: the API, the protections, and the server's own style; Jetty waits up to
     * {@code stopTimeout} for requests in flight when it stops.
     */
    static void standalone(ApiSettings api, JavalinConfig config, ClientLimits limits, Duration stopTimeout) {
        install(new Target(Audience.STANDALONE, Optional.of(api), Optional.of(limits), Optional.of(stopTimeout),
                Optional.empty()), config, OptionalLibrary.CLASS_PATH, Operations.PLANT_STORE);
    }

    /** A management port's protections, for an application of the embedder's serving on {@code host}. */
    static void managementPort(JavalinConfig config, String host) {
        install(new Target(Audience.MANAGEMENT_PORT, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(host)), config, OptionalLibrary.CLASS_PATH, Operations.PLANT_STORE);
    }

    private static void install(Target target, JavalinConfig config, ClassLoader libraries, Operations operations) {
        // Before anything is registered: a mount that fails leaves the configuration as it was.
        var assembly = new Assembly(target, config, target.api().map(api -> docsServed(api, libraries)).orElse(false),
                operations);
        for (Step step : STEPS) {
            if (step.audiences().contains(target.audience())) {
                step.install().accept(assembly);
            }
        }
        assembly.finish();
    }

    private static boolean docsServed(ApiSettings api, ClassLoader libraries) {
        return switch (api.docs()) {
            case NEVER -> false;
            case ALWAYS -> {
                OptionalLibrary.require(libraries, "Serving the API's documents (" + DOCS_PATHS + "), asked for with "
                        + "withDocs(true),", "call withDocs(false)", DOCS_LIBRARIES);
                yield true;
            }
            case WHEN_PRESENT -> docsLibrariesPresent(libraries);
        };
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
        ApiLog.LOG.info("The API's documents ({}) are off: they need {} on the class path, which plantstore-http "
                + "declares optional. Add {} to your dependencies to serve them, or call withDocs(false) to turn them "
                + "off without this line.", DOCS_PATHS, String.join(" and ", missing),
                missing.size() == 1 ? "it" : "them");
        return false;
    }

    private static void connector(Assembly assembly) {
        assembly.config.jetty.modifyHttpConfiguration(Pipeline::strict);
        Target target = assembly.target;
        target.limits().ifPresent(limits -> {
            assembly.onServer(server -> {
                server.addBean(new NetworkConnectionLimit(limits.maxConnections(), server));
                server.addBean(new HeaderTimeout(server, limits.headerTimeout()));
            });
            assembly.onConnectors(connector -> connector.setIdleTimeout(limits.idleTimeout().toMillis()));
        });
        if (target.audience() == Audience.STANDALONE) {
            assembly.config.jetty.modifyHttpConfiguration(http -> {
                http.setSendServerVersion(false);
                http.setSendXPoweredBy(false);
            });
            long stopMillis = target.stopTimeout().orElseThrow().toMillis();
            if (stopMillis > 0) {
                // While stopping, Jetty cuts every connection silent for this long (1 s by default), which would cut
                // a request in flight whose body pauses. Half the stop time-out lets a body pause for seconds and
                // still leaves the stop time to end cleanly: a connection that never sent a request waits this long
                // too. Idle keep-alive connections are closed at once by GracefulStopHandler.
                assembly.onConnectors(connector -> connector.setShutdownIdleTimeout(stopMillis / 2));
            }
        }
    }

    /** The standalone server's handler is the API's alone: Javalin's statistics handler is unread, so it goes. */
    private static void gracefulStop(Assembly assembly) {
        Duration stopTimeout = assembly.target.stopTimeout().orElseThrow();
        assembly.onServer(server -> {
            server.setHandler((Handler) null);
            server.setStopTimeout(stopTimeout.toMillis());
        });
        assembly.handlers.add(new GracefulStopHandler());
    }

    private static void readAhead(Assembly assembly) {
        BearerAuth auth = assembly.auth();
        Predicate<Request> admittedCreate = request -> assembly.operations.of(request)
                .filter(Operations.Operation::readsBody).isPresent()
                && auth.decisionFor(Exchange.of(request)) instanceof Exchange.Admitted;
        int maxBodyBytes = assembly.api().maxBodyBytes();
        long minBytesPerSecond = assembly.target.limits().orElseThrow().minBodyBytesPerSecond();
        assembly.handlers.add(new UnreadBodyDrain(maxBodyBytes, minBytesPerSecond));
        assembly.handlers.add(BodyBeforeHandler.handler(maxBodyBytes, minBytesPerSecond, admittedCreate));
    }

    /** One before-handler per path, not one per concern: Javalin matches each against the path on every request. */
    private static void gate(Assembly assembly) {
        BearerAuth auth = assembly.auth();
        var gate = guard(ctx -> {
            SecurityHeaders.onApiResponse(ctx);
            auth.handle(ctx);
        });
        assembly.operations.all().stream().map(Operations.Operation::beforePattern).distinct()
                .forEach(pattern -> assembly.config.routes.before(pattern, gate));
    }

    private static void cors(Assembly assembly) {
        Set<String> origins = assembly.api().corsOrigins();
        if (origins.isEmpty()) {
            return;
        }
        var routes = assembly.config.routes;
        assembly.operations.byPath().forEach((path, operations) -> routes.before(operations.get(0).beforePattern(),
                new Cors(origins, operations.stream().map(Operations.Operation::method).toList())));
        routes.before("/openapi.json", new Cors(origins, List.of(HandlerType.GET)));
        routes.before("/openapi.yaml", new Cors(origins, List.of(HandlerType.GET)));
    }

    private static void plantRoutes(Assembly assembly) {
        ApiSettings api = assembly.api();
        PlantStore store = api.store();
        if (api.tracing().isPresent()) {
            store = new TracedPlantStore(store, api.tracing().get());
        }
        if (api.metrics().isPresent()) {
            store = new MeteredPlantStore(store, api.metrics().get());
        }
        var routes = new PlantRoutes(store, api.maxBodyBytes());
        assembly.operations.byPath().forEach((path, operations) -> {
            Map<HandlerType, io.javalin.http.Handler> handlers = new LinkedHashMap<>();
            operations.forEach(operation -> handlers.put(operation.method(),
                    guard(ctx -> operation.handler().accept(routes, ctx))));
            AllowedMethods.only(assembly.config, path, handlers);
        });
    }

    private static void apiDocs(Assembly assembly) {
        if (!assembly.docs) {
            return;
        }
        ApiSettings api = assembly.api();
        ApiDocs.load(api.readiness().isPresent(),
                api.documentedIssuer().map(issuer -> new ApiDocs.IdentityProvider(issuer, api.scopes())))
                .mount(assembly.config);
    }

    private static void errorBodies(Assembly assembly) {
        assembly.config.routes.exception(HttpResponseException.class,
                (e, ctx) -> Json.respond(ctx, new ApiError(e.getStatus(), describe(e, ctx))));
        assembly.config.routes.exception(Exception.class, (e, ctx) -> GuardedHandler.respondInternalError(ctx, e));
    }

    /**
     * The credentials of a create or delete are judged before its span starts, so that only an admitted caller's
     * trace is continued; the gate (BearerAuth) then finds the decision made. No other request's caller is
     * continued, so no other request needs its credentials judged early.
     */
    private static void requestSpans(Assembly assembly) {
        assembly.api().tracing().ifPresent(openTelemetry -> {
            BearerAuth auth = assembly.auth();
            Predicate<Request> admittedWrite = request -> assembly.operations.of(request).isPresent()
                    && auth.decisionFor(Exchange.of(request)) instanceof Exchange.Admitted;
            assembly.handlers.add(new RequestSpans(openTelemetry, assembly.api().healthTraced(), admittedWrite));
            assembly.config.requestLogger.http((ctx, millis) -> RequestSpans.nameByRoute(ctx));
        });
    }

    /** Micrometer is an optional dependency: its classes are touched only when metrics are on. */
    private static void httpMetrics(Assembly assembly) {
        if (assembly.api().metrics().isPresent()) {
            HttpMetrics.bind(assembly.config, assembly.api().metrics().get());
        }
    }

    private static void accessLog(Assembly assembly) {
        ClientAddresses clients = assembly.api().clientAddresses();
        assembly.onServer(server -> server.setRequestLog(new AccessLog(clients)));
        assembly.config.requestLogger.http((ctx, millis) -> Exchange.of(ctx).routed(Exchange.routeTemplate(ctx)));
    }

    /**
     * RFC 9112 as written: Jetty's RFC 9110 mode still lets a bare LF end a header line, which a proxy in front may
     * read as part of the line, and so see other headers than the server does. Jetty's default URI compliance refuses
     * ambiguous paths (an encoded slash, encoded dot segments) that Javalin's legacy setting lets through.
     */
    private static void strict(HttpConfiguration http) {
        http.setHttpCompliance(HttpCompliance.RFC9110.without("RFC9110_CRLF",
                HttpCompliance.Violation.LF_HEADER_TERMINATION));
        http.setUriCompliance(UriCompliance.DEFAULT);
    }

    private static String describe(HttpResponseException e, Context ctx) {
        return e.getStatus() == 404 ? "no such resource: " + ctx.method().name() + " " + ctx.path() : e.getMessage();
    }
}
