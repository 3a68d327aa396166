package dev.plantstore.http;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Optional;

/**
 * Headers every response of the API carries: nothing about plants or tokens is kept by a cache along the way, and a
 * browser never second-guesses a content type (a JSON error shown as HTML, say).
 *
 * <p>Each response gets them once, from one place, which {@link Pipeline} chooses. On a server of the API's own (the
 * standalone server, a management port) one before-handler sets them on every path, first, and nothing else does.
 * Mounted on an application that owns the rest of its paths, the API sets them on its own responses only: its gate on
 * {@code /plants} and below, and the responses that no before-handler of the API precedes (a CORS preflight, the
 * documents, a 405 on the health and document paths), which say {@code nosniff} themselves.
 */
final class SecurityHeaders {

    static final String CACHE_CONTROL = "no-store";
    static final String CONTENT_TYPE_OPTIONS = "nosniff";
    static final String CONTENT_TYPE_OPTIONS_HEADER = "X-Content-Type-Options";

    private final boolean everyPath;

    private SecurityHeaders(boolean everyPath) {
        this.everyPath = everyPath;
    }

    /** Set on every path by {@link #beforeEveryPath()}, which must be the first before-handler registered. */
    static SecurityHeaders onEveryPath() {
        return new SecurityHeaders(true);
    }

    /** Set by the API's own responses, on a server whose other paths belong to someone else. */
    static SecurityHeaders onTheApisResponses() {
        return new SecurityHeaders(false);
    }

    /** The before-handler that sets both headers on every path, when they are set that way. */
    Optional<Handler> beforeEveryPath() {
        return everyPath ? Optional.of(SecurityHeaders::setBoth) : Optional.empty();
    }

    /** Both headers on a response about plants or tokens, unless every path has them already. */
    void onApiResponse(Context ctx) {
        if (!everyPath) {
            setBoth(ctx);
        }
    }

    /** {@code nosniff} on any other response of the API, unless it, or every path, has it already. */
    void noSniff(Context ctx) {
        if (!everyPath && !ctx.res().containsHeader(CONTENT_TYPE_OPTIONS_HEADER)) {
            ctx.header(CONTENT_TYPE_OPTIONS_HEADER, CONTENT_TYPE_OPTIONS);
        }
    }

    private static void setBoth(Context ctx) {
        ctx.header("Cache-Control", CACHE_CONTROL);
        ctx.header(CONTENT_TYPE_OPTIONS_HEADER, CONTENT_TYPE_OPTIONS);
    }
}
