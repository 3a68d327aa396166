package dev.plantstore.http;

import io.javalin.http.Context;

/**
 * Headers every response of the API carries: nothing about plants or tokens is kept by a cache along the way, and a
 * browser never second-guesses a content type (a JSON error shown as HTML, say).
 *
 * <p>On a server of the API's own (the standalone server, a management port) a before-handler sets them on every
 * path, first ({@link Pipeline}). Mounted on an application that owns the rest of its paths, the API sets them on its
 * own responses only: its gate on {@code /plants} and below, and the responses that no before-handler of the API
 * precedes (a CORS preflight, the documents, a 405 on the health and document paths), which say {@code nosniff}
 * themselves. Those set them on a server of the API's own too, where setting a header again replaces it: each
 * response carries each header once, whoever set it.
 */
final class SecurityHeaders {

    static final String CACHE_CONTROL = "no-store";
    static final String CONTENT_TYPE_OPTIONS = "nosniff";
    static final String CONTENT_TYPE_OPTIONS_HEADER = "X-Content-Type-Options";

    private SecurityHeaders() {
    }

    /** The before-handler of a server of the API's own, the first it registers: both headers on every path. */
    static void onEveryPath(Context ctx) {
        setBoth(ctx);
    }

    /**
     * Both headers on a response about plants or tokens. A header set twice is replaced, not repeated, so on a server
     * that sets them on every path this changes nothing.
     */
    static void onApiResponse(Context ctx) {
        setBoth(ctx);
    }

    /** {@code nosniff} on any other response of the API. */
    static void noSniff(Context ctx) {
        ctx.header(CONTENT_TYPE_OPTIONS_HEADER, CONTENT_TYPE_OPTIONS);
    }

    private static void setBoth(Context ctx) {
        ctx.header("Cache-Control", CACHE_CONTROL);
        ctx.header(CONTENT_TYPE_OPTIONS_HEADER, CONTENT_TYPE_OPTIONS);
    }
}
