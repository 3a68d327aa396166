package dev.plantstore.http;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import java.util.List;

/**
 * The route template that served a request, such as {@code /plants/{id}}: what the metrics and the access line say
 * instead of the raw path, which would give them one value per path a client tries.
 */
final class RouteTemplate {

    /** The route of a request no route matched. */
    static final String UNMATCHED = "unmatched";

    private RouteTemplate() {
    }

    /**
     * Javalin names the matched route only once a before-handler lets the request through; one that stopped it (a
     * 401) is labelled with that handler's pattern, such as {@code /plants/*}, which is still a template.
     */
    static String of(Context ctx) {
        Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
        if (endpoint != null) {
            return endpoint.path;
        }
        List<Endpoint> visited = ctx.endpoints().list();
        String last = visited.isEmpty() ? "*" : visited.get(visited.size() - 1).path;
        return last.equals("*") ? UNMATCHED : last;
    }
}
