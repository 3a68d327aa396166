package dev.plantstore.http;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.List;
import java.util.Set;

/**
 * Cross-origin access for the listed origins, so that a page served elsewhere (a docs site, a web app) can call the
 * API from a browser. A preflight from a listed origin is answered here, before authentication, because browsers send
 * it without the Authorization header; every other request still needs its token. Requests from other origins get no
 * CORS header, so the browser keeps them from the page.
 */
final class Cors implements Handler {

    static final String ANY_ORIGIN = "*";

    /** The response headers a page may read besides the simple ones: the challenge, the back-off, the method list. */
    private static final String EXPOSED_HEADERS = "WWW-Authenticate, Retry-After, Allow";

    private final Set<String> origins;
    private final String methods;

    /** For a path that serves {@code methods}. */
    Cors(Set<String> origins, List<HandlerType> methods) {
        this.origins = Set.copyOf(origins);
        this.methods = String.join(", ", methods.stream().map(HandlerType::name).toList());
    }

    /** An origin as browsers send it: scheme, host, optional port, nothing else; or {@code *} for any. */
    static void requireValidOrigin(String origin) {
        if (!origin.equals(ANY_ORIGIN) && !origin.matches("https?://[^/?#\\s]+")) {
            throw new IllegalArgumentException("a CORS origin must look like https://example.com[:port] or be *");
        }
    }

    @Override
    public void handle(Context ctx) {
        String origin = ctx.header("Origin");
        if (origin == null || !(origins.contains(origin) || origins.contains(ANY_ORIGIN))) {
            return;
        }
        ctx.header("Access-Control-Allow-Origin", origin);
        ctx.header("Vary", "Origin");
        ctx.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
        if (ctx.method().equals(HandlerType.OPTIONS) && ctx.header("Access-Control-Request-Method") != null) {
            ctx.header("Access-Control-Allow-Methods", methods);
            ctx.header("Access-Control-Allow-Headers", "Authorization, Content-Type");
            ctx.header("Access-Control-Max-Age", "600");
            // The API's gate, which sets them on its paths when mounted, comes after this handler, which a preflight
            // ends.
            SecurityHeaders.onApiResponse(ctx);
            ctx.status(204).res().setContentType(null);
            ctx.skipRemainingHandlers();
        }
    }
}
