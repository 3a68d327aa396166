package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.handler.GracefulHandler;

/**
 * The Plant Store API as a standalone server. Besides the API it answers the {@link Health} routes without
 * authentication: {@code GET /health/live}, and {@code GET /health/ready} and {@code GET /health} (200
 * {@code {"status":"UP"}}, or 503 {@code {"status":"DOWN"}} while the store cannot be reached or after
 * {@link #drain()}),
 * gives every other path a 404 Error body, logs one access line per request (never its headers), and on
 * {@link #close()} stops accepting connections while letting requests in flight finish.
 *
 * <pre>{@code
 * try (var server = PlantStoreServer.start(api, "127.0.0.1", 0)) {
 *     System.out.println("listening on port " + server.port());
 * }
 * }</pre>
 */
public final class PlantStoreServer implements AutoCloseable {

    /** How long {@link #close()} waits for requests in flight before cutting them off. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /** How long a connection may stay silent unless {@link #start(PlantStoreApi, String, int, Duration)} says. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final Javalin app;
    private final String host;
    private final AtomicBoolean draining;
    private final BooleanSupplier ready;

    private PlantStoreServer(Javalin app, String host, AtomicBoolean draining, BooleanSupplier ready) {
        this.app = app;
        this.host = host;
        this.draining = draining;
        this.ready = ready;
    }

    /**
     * Starts a server on {@code host} and {@code port}; port 0 picks a free port, which {@link #port()} then reports.
     *
     * @throws io.javalin.util.JavalinBindException when the address cannot be bound
     */
    public static PlantStoreServer start(PlantStoreApi api, String host, int port) {
        return start(api, host, port, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * As {@link #start(PlantStoreApi, String, int)}, closing any connection on which nothing arrives for
     * {@code idleTimeout}: an idle keep-alive connection, a client that stops in the middle of its headers, a body
     * that never finishes (which gets 408 first).
     */
    public static PlantStoreServer start(PlantStoreApi api, String host, int port, Duration idleTimeout) {
        Objects.requireNonNull(host, "null host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive");
        }
        var draining = new AtomicBoolean();
        BooleanSupplier ready = () -> !draining.get() && api.store().isAvailable();
        Javalin app = create(api, STOP_TIMEOUT, ready);
        app.start(host, port);
        // Javalin creates its connector on start; connections from here on get the time-out.
        for (Connector connector : app.jettyServer().server().getConnectors()) {
            if (connector instanceof AbstractConnector timed) {
                timed.setIdleTimeout(idleTimeout.toMillis());
            }
        }
        return new PlantStoreServer(app, host, draining, ready);
    }

    /**
     * The application {@link #start} runs, not yet started, so that tests can start it with their own tools. Tests
     * pass a zero stop timeout: a graceful stop costs about a second even when no request is in flight.
     */
    static Javalin create(PlantStoreApi api, Duration stopTimeout) {
        return create(api, stopTimeout, api.store()::isAvailable);
    }

    /** As {@link #create(PlantStoreApi, Duration)}, ready when {@code ready} says so. */
    static Javalin create(PlantStoreApi api, Duration stopTimeout, BooleanSupplier ready) {
        Objects.requireNonNull(api, "null api");
        return Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.jetty.modifyHttpConfiguration(http -> {
                http.setSendServerVersion(false);
                http.setSendXPoweredBy(false);
            });
            config.jetty.modifyServer(server -> {
                // Javalin nests its handler inside this one, which tracks requests in flight for a graceful stop.
                server.setHandler(new GracefulHandler());
                server.setStopTimeout(stopTimeout.toMillis());
                server.setErrorHandler(new JsonErrorHandler());
                server.setRequestLog(new AccessLog());
            });

            config.routes.before(new SecurityHeaders());
            api.mount(config);
            Health.mount(config, ready);
            config.requestLogger.http((ctx, millis) ->
                    ctx.req().setAttribute(AccessLog.ROUTE_ATTRIBUTE, HttpMetrics.route(ctx)));
            config.routes.exception(HttpResponseException.class,
                    (e, ctx) -> Json.respond(ctx, new ApiError(e.getStatus(), describe(e, ctx))));
            config.routes.exception(Exception.class, (e, ctx) -> GuardedHandler.respondInternalError(ctx, e));
        });
    }

    private static String describe(HttpResponseException e, Context ctx) {
        return e.getStatus() == 404 ? "no such resource: " + ctx.method().name() + " " + ctx.path() : e.getMessage();
    }

    /** The port the server listens on. */
    public int port() {
        return app.port();
    }

    /** The host name or address the server was bound to. */
    public String host() {
        return host;
    }

    /**
     * Whether the server should get requests: not draining, and its store available. What {@code GET /health/ready}
     * answers.
     */
    public boolean isReady() {
        return ready.getAsBoolean();
    }

    /**
     * Turns readiness DOWN for good while the server goes on serving: a load balancer checking
     * {@code /health/ready} stops sending new requests, and those already sent are still answered. Call it, wait
     * for the balancer to notice, then {@link #close()}.
     */
    public void drain() {
        draining.set(true);
    }

    /**
     * Stops the server: no new connections are accepted, requests in flight get up to {@link #STOP_TIMEOUT} to finish,
     * then the server is gone. The store is left open: it belongs to whoever created it. Idempotent.
     */
    @Override
    public void close() {
        app.stop();
    }
}
