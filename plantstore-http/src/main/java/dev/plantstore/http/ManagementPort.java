package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import java.util.Objects;

/**
 * What an operations port (metrics, health) needs: it answers only a {@code Host} that is an IP address,
 * {@code localhost}, the configured host, or none, and any other 421, so a page whose name an attacker rebinds to this
 * machine cannot read it; request ids, security headers, Error bodies, and {@link PlantStoreServer}'s strict parsing.
 *
 * <pre>{@code
 * Javalin.create(config -> {
 *     ManagementPort.protect(config, "127.0.0.1");
 *     config.routes.get("/metrics", ctx -> ctx.result(registry.scrape()));
 * }).start("127.0.0.1", 9090);
 * }</pre>
 */
public final class ManagementPort {

    private ManagementPort() {
    }

    /** Protects the application {@code config} builds, serving on {@code host} (a name or an address). */
    public static void protect(JavalinConfig config, String host) {
        Pipeline.managementPort(config, Objects.requireNonNull(host, "null host"));
    }
}
