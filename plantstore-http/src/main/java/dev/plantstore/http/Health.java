package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Liveness and readiness routes for any Javalin application, no token needed, each answering HEAD as GET and any
 * other method 405:
 * <ul>
 *   <li>{@code GET /health/live}: 200 {@code {"status":"UP"}} whenever the process can answer at all. It never
 *       touches the store, so a database outage does not get the process restarted.</li>
 *   <li>{@code GET /health/ready}, and {@code GET /health} as before: 200 {@code {"status":"UP"}} while
 *       {@code ready} says so, else 503 {@code {"status":"DOWN"}}; a load balancer sends requests only while it is
 *       UP.</li>
 * </ul>
 *
 * <pre>{@code
 * Javalin.create(config -> Health.mount(config, store::isAvailable)).start(8081);
 * }</pre>
 */
public final class Health {

    private Health() {
    }

    /** Adds the three routes; {@code ready} must answer quickly and never throw. */
    public static void mount(JavalinConfig config, BooleanSupplier ready) {
        Objects.requireNonNull(ready, "null ready");
        AllowedMethods.get(config, "/health/live", ctx -> Json.respondStatus(ctx, 200, "UP"));
        AllowedMethods.get(config, "/health/ready", ctx -> respondReadiness(ctx, ready));
        AllowedMethods.get(config, "/health", ctx -> respondReadiness(ctx, ready));
    }

    private static void respondReadiness(Context ctx, BooleanSupplier ready) {
        if (ready.getAsBoolean()) {
            Json.respondStatus(ctx, 200, "UP");
        } else {
            Json.respondStatus(ctx, 503, "DOWN");
        }
    }
}
