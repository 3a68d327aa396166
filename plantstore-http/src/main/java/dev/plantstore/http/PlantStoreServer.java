package dev.plantstore.http;

import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.util.JavalinBindException;
import io.javalin.util.JavalinException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The Plant Store API as a standalone server: the API, the {@link Health} routes without a token (503 while the store
 * cannot be reached or after {@link #drain()}), a 404 Error body on every other path, one access line per request,
 * {@link ClientLimits} on connections, and on {@link #close()} a graceful stop. It does not own its store: whoever
 * created the store closes it, after the server. docs/library.md compares it with {@link PlantStoreApi#mount}.
 *
 * <pre>{@code
 * try (var server = PlantStoreServer.start(api, "127.0.0.1", 0)) {
 *     URI plants = server.uri().resolve("/plants");
 * }
 * }</pre>
 */
public final class PlantStoreServer implements AutoCloseable {

    /** How long {@link #close()} waits for requests in flight before cutting them off. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /** How long a connection may stay silent unless {@link ClientLimits#withIdleTimeout} says otherwise. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = ClientLimits.DEFAULT_IDLE_TIMEOUT;

    private static final String WILDCARD_IPV4 = "0.0.0.0";
    private static final Set<String> WILDCARD_IPV6 = Set.of("::", "0:0:0:0:0:0:0:0");

    private final Javalin app;
    private final String host;
    private final AtomicBoolean draining;
    private final BooleanSupplier ready;
    private final String scheme;

    private PlantStoreServer(Javalin app, String host, AtomicBoolean draining, BooleanSupplier ready, String scheme) {
        this.scheme = scheme;
        this.app = app;
        this.host = host;
        this.draining = draining;
        this.ready = ready;
    }

    /**
     * Starts a server on {@code host} and {@code port}; port 0 picks a free port, which {@link #port()} then reports.
     *
     * @throws UncheckedIOException when the address cannot be bound; its cause says why (address in use, permission
     *         denied, unknown host)
     * @throws IllegalStateException when the server fails to start for another reason
     */
    public static PlantStoreServer start(PlantStoreApi api, String host, int port) {
        return start(api, host, port, ClientLimits.defaults());
    }

    /** As {@link #start(PlantStoreApi, String, int)}, with these limits on client connections. */
    public static PlantStoreServer start(PlantStoreApi api, String host, int port, ClientLimits limits) {
        return start(api, host, port, limits, Optional.empty());
    }

    /**
     * As {@link #start(PlantStoreApi, String, int, ClientLimits)}, speaking only TLS, with HTTP/2 beside HTTP/1.1, on
     * the key pair {@code tls} holds ({@link TlsConnector}); {@link #uri()} then starts with {@code https}.
     */
    public static PlantStoreServer start(PlantStoreApi api, String host, int port, ClientLimits limits,
                                         SslContextFactory.Server tls) {
        return start(api, host, port, limits, Optional.of(Objects.requireNonNull(tls, "null tls")));
    }

    private static PlantStoreServer start(PlantStoreApi api, String host, int port, ClientLimits limits,
                                          Optional<SslContextFactory.Server> tls) {
        Objects.requireNonNull(host, "null host");
        Objects.requireNonNull(limits, "null limits");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
        var draining = new AtomicBoolean();
        BooleanSupplier ready = () -> !draining.get() && api.store().isAvailable();
        Javalin app = create(api, STOP_TIMEOUT, ready, limits,
                config -> tls.ifPresent(keys -> TlsConnector.serve(config, keys, host, port)));
        try {
            app.start(host, port);
        } catch (JavalinBindException e) {
            // Javalin's message blames a busy port whatever the cause; Jetty's cause names the address.
            throw e.getCause() instanceof IOException bindFailure
                    ? new UncheckedIOException(bindFailure.getMessage(), bindFailure)
                    : new IllegalStateException("the server did not start", e.getCause());
        } catch (JavalinException e) {
            throw new IllegalStateException("the server did not start", e.getCause());
        }
        return new PlantStoreServer(app, host, draining, ready, tls.isPresent() ? "https" : "http");
    }

    /**
     * The application {@link #start} runs, not yet started, ready when {@code ready} says so, listening as
     * {@code connectors} sets (Javalin's plain HTTP when they set nothing); in-process tests start it with
     * javalin-testtools.
     */
    static Javalin create(PlantStoreApi api, Duration stopTimeout, BooleanSupplier ready, ClientLimits limits,
                                  Consumer<JavalinConfig> connectors) {
        Objects.requireNonNull(api, "null api");
        return Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            Pipeline.standalone(api.withReadiness(ready).settings(), config, limits, stopTimeout);
            connectors.accept(config);
        });
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
     * The address a client in this process reaches the server at, ending in {@code /}:
     * {@code http://127.0.0.1:40123/}, or {@code https://} when it serves TLS. A server bound to every interface
     * ({@code 0.0.0.0}, {@code ::}) is reached through the loopback address of the same family.
     */
    public URI uri() {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        String reachable = WILDCARD_IPV4.equals(bare) ? "127.0.0.1" : WILDCARD_IPV6.contains(bare) ? "::1" : bare;
        try {
            return new URI(scheme, null, reachable, port(), "/", null, null);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the bound host " + host + " does not fit in a URI", e);
        }
    }

    /**
     * Stops the server: no new connections are accepted, idle keep-alive connections are closed at once, requests in
     * flight get up to ten seconds to finish, then the server is gone. Returns within milliseconds when no request is
     * in flight and every open connection has answered one; a connection that has sent nothing since it opened is
     * closed once it has been silent for half the stop's time-out, as is one whose request's body pauses. The store
     * is left open: it belongs to whoever created it, who closes it after the server. Idempotent.
     *
     * @throws IllegalStateException when requests were still in flight at the stop time-out, or the stop failed
     */
    @Override
    public void close() {
        try {
            app.stop();
        } catch (JavalinException e) {
            throw new IllegalStateException("the server did not stop cleanly", e.getCause());
        }
    }
}
