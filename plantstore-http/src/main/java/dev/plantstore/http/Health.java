package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Liveness and readiness routes for any Javalin application, no token needed, HEAD answered as GET, other methods
 * 405: {@code GET /health/live} is 200 {@code {"status":"UP"}} whenever the process can answer (it never touches the
 * store, so an outage gets no restart); {@code GET /health/ready} and {@code GET /health} are 200 while {@code ready}
 * says so, else 503 {@code {"status":"DOWN"}}.
 *
 * <pre>{@code
 * Javalin.create(config -> Health.mount(config, store::isAvailable)).start(8081);
 * }</pre>
 */
public final class Health {

    private static final String LIVE = "/health/live";
    private static final String READY = "/health/ready";
    private static final String READY_AS_BEFORE = "/health";
    private static final Set<String> PATHS = Set.of(LIVE, READY, READY_AS_BEFORE);

    private Health() {
    }

    /** Adds the three routes; {@code ready} must answer quickly and never throw. */
    public static void mount(JavalinConfig config, BooleanSupplier ready) {
        Objects.requireNonNull(ready, "null ready");
        AllowedMethods.get(config, LIVE, ctx -> Json.respondStatus(ctx, 200, "UP"));
        AllowedMethods.get(config, READY, ctx -> respondReadiness(ctx, ready));
        AllowedMethods.get(config, READY_AS_BEFORE, ctx -> respondReadiness(ctx, ready));
    }

    /** Whether a request for {@code path} goes to one of the routes, which Javalin serves with a trailing slash too. */
    static boolean isProbe(String path) {
        return PATHS.contains(path) || path.endsWith("/") && PATHS.contains(path.substring(0, path.length() - 1));
    }

    private static void respondReadiness(Context ctx, BooleanSupplier ready) {
        if (ready.getAsBoolean()) {
            Json.respondStatus(ctx, 200, "UP");
        } else {
            Json.respondStatus(ctx, 503, "DOWN");
        }
    }
}
