package dev.plantstore.http;

import io.javalin.http.Context;
import io.javalin.http.Handler;

/**
 * Headers every response of the API carries: nothing about plants or tokens is kept by a cache along the way, and a
 * browser never second-guesses a content type (a JSON error shown as HTML, say).
 */
final class SecurityHeaders implements Handler {

    static final String CACHE_CONTROL = "no-store";
    static final String CONTENT_TYPE_OPTIONS = "nosniff";

    @Override
    public void handle(Context ctx) {
        ctx.header("Cache-Control", CACHE_CONTROL);
        ctx.header("X-Content-Type-Options", CONTENT_TYPE_OPTIONS);
    }
}
