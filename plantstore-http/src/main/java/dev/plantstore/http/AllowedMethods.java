package dev.plantstore.http;

import static dev.plantstore.http.GuardedHandler.guard;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.List;
import java.util.Map;

/**
 * Routes that own a path: the methods it serves, and a 405 with an {@code Allow} header for every other method, so
 * that a client is never told a path it can use does not exist.
 */
final class AllowedMethods {

    private AllowedMethods() {
    }

    /**
     * GET and HEAD with the same handler: HEAD runs the GET handler and Jetty sends no body, so the status,
     * {@code Content-Type} and {@code Content-Length} are GET's (RFC 9110 section 9.3.2). Javalin's own HEAD for a
     * GET route answers 200 with an empty plain-text body without running the handler, whatever GET would answer.
     */
    static void get(JavalinConfig config, String path, Handler handler) {
        config.routes.get(path, handler);
        config.routes.head(path, handler);
        refuseOthers(config, path, List.of(HandlerType.GET, HandlerType.HEAD));
    }

    /** Each method with its handler, every other method a 405. */
    static void only(JavalinConfig config, String path, Map<HandlerType, Handler> handlers) {
        handlers.forEach((method, handler) -> config.routes.addHttpHandler(method, path, handler));
        refuseOthers(config, path, List.copyOf(handlers.keySet()));
    }

    private static void refuseOthers(JavalinConfig config, String path, List<HandlerType> allowed) {
        String allow = String.join(", ", allowed.stream().map(HandlerType::name).toList());
        var methodNotAllowed = guard(ctx -> {
            SecurityHeaders.noSniff(ctx);
            ctx.header("Allow", allow);
            throw new ApiProblem(405, ctx.method().name() + " is not allowed on " + path + "; use " + allow);
        });
        for (HandlerType method : HandlerType.values()) {
            if (method.isHttpMethod() && !allowed.contains(method)) {
                config.routes.addHttpHandler(method, path, methodNotAllowed);
            }
        }
    }
}
