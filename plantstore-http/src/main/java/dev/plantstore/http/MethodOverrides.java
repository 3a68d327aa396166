package dev.plantstore.http;

import java.util.List;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses, with 400, every request that carries a method-override header ({@code X-HTTP-Method-Override},
 * {@code X-HTTP-Method}, {@code X-Method-Override}). Javalin would route {@code POST} with
 * {@code X-HTTP-Method-Override: DELETE} as a DELETE, behind the back of a proxy that filters by method and of the
 * access line, which shows the request line's method. Refused rather than ignored, so that a client relying on an
 * override learns at once that it does not happen, and the access line shows the refusal.
 */
final class MethodOverrides extends Handler.Wrapper {

    static final List<String> HEADERS = List.of("X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override");

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        for (String header : HEADERS) {
            if (request.getHeaders().contains(header)) {
                var refusal = new ApiProblem(400, header + " is not supported: send the method in the request line");
                Response.writeError(request, response, callback, 400, refusal.getMessage(), refusal);
                return true;
            }
        }
        return super.handle(request, response, callback);
    }
}
