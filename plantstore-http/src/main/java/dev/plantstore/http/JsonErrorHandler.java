package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error responses (a malformed request line, a bad URI, headers too large) in the API's Error shape
 * instead of an HTML page, whatever the request's method. The message is the status's reason phrase, or an
 * {@link ApiProblem}'s own when the server refused the request in its own words: Jetty's detail stays out of the
 * response.
 */
final class JsonErrorHandler extends ErrorHandler {

    JsonErrorHandler() {
        setCacheControl(SecurityHeaders.CACHE_CONTROL);
    }

    /** Jetty writes no body for methods other than GET, POST and HEAD; every refusal of this server has one. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Json.CONTENT_TYPE);
        response.getHeaders().put(SecurityHeaders.CONTENT_TYPE_OPTIONS_HEADER, SecurityHeaders.CONTENT_TYPE_OPTIONS);
        if (!response.getHeaders().contains(RequestIds.HEADER)) {
            // Jetty refused the request before any handler ran, so no id was given yet.
            response.getHeaders().put(RequestIds.HEADER,
                    RequestIds.acceptOrGenerate(request.getHeaders().get(RequestIds.HEADER)));
        }
        String text = cause instanceof ApiProblem problem ? problem.getMessage() : HttpStatus.getMessage(code);
        response.write(true, ByteBuffer.wrap(Json.bytes(new ApiError(code, text))), callback);
    }
}
