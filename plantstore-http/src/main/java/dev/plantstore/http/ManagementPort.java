package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import java.util.Objects;

/**
 * What an operations port (metrics, health) needs around its routes, for an application that serves one:
 *
 * <pre>{@code
 * Javalin.create(config -> {
 *     ManagementPort.protect(config, "127.0.0.1");
 *     config.routes.get("/metrics", ctx -> ctx.result(registry.scrape()));
 * }).start("127.0.0.1", 9090);
 * }</pre>
 *
 * <p>It answers only requests whose {@code Host} is an IP address, {@code localhost} or the host the port was
 * configured with, or that have none (HTTP/1.0); any other gets 421. A page on a site whose name an attacker rebinds to
 * this machine's address (DNS rebinding) sends its own name as the {@code Host}, so it cannot read the metrics, while a
 * scraper or a probe addressing the port by address or by that host gets through. Every response carries an
 * {@code X-Request-Id} and the security headers, and every refusal (421, 404, a malformed request) is an Error body,
 * never Jetty's page, as is the 500 for an exception a handler throws. It parses HTTP as strictly as
 * {@link PlantStoreServer} does: its steps come from the same list as the API's.
 */
public final class ManagementPort {

    private ManagementPort() {
    }

    /** Protects the application {@code config} builds, serving on {@code host} (a name or an address). */
    public static void protect(JavalinConfig config, String host) {
        Pipeline.managementPort(config, Objects.requireNonNull(host, "null host"));
    }
}
