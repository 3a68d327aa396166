package dev.plantstore.app;

import dev.plantstore.http.Health;
import dev.plantstore.http.ManagementPort;
import dev.plantstore.http.TlsConnector;
import io.javalin.Javalin;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The management port: {@code GET /metrics} in Prometheus's text format, {@code GET /health/live} and
 * {@code GET /health/ready}, none needing a token. Apart from the API's port, so that metrics are never exposed where
 * clients reach, and so that a scrape or a probe never waits behind API traffic. It answers only requests addressed to
 * an IP address, {@code localhost} or its own host ({@link ManagementPort}).
 */
final class ManagementServer implements AutoCloseable {

    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final Javalin app;
    private final AtomicReference<BooleanSupplier> readiness = new AtomicReference<>(() -> false);

    private ManagementServer(String host, int port, PrometheusMeterRegistry registry,
                             Optional<SslContextFactory.Server> tls) {
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.jetty.modifyHttpConfiguration(http -> http.setSendServerVersion(false));
            ManagementPort.protect(config, host);
            Health.mount(config, () -> readiness.get().getAsBoolean());
            config.routes.get("/metrics", ctx -> ctx.contentType(PROMETHEUS_TEXT).result(registry.scrape()));
            tls.ifPresent(keys -> TlsConnector.serve(config, keys, host, port));
        });
    }

    /**
     * Starts on {@code host} and {@code port}; port 0 picks a free port, which {@link #port()} then reports. It
     * reports not ready until {@link #readyWhen} says what readiness is. With {@code tls}, it speaks only TLS.
     */
    static ManagementServer start(String host, int port, PrometheusMeterRegistry registry,
                                  Optional<SslContextFactory.Server> tls) {
        var server = new ManagementServer(host, port, registry, tls);
        server.app.start(host, port);
        return server;
    }

    /** From now on, ready whenever {@code ready} says so: the server it reports on is up. */
    void readyWhen(BooleanSupplier ready) {
        readiness.set(ready);
    }

    int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
