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
 * instead of an HTML page. The message is the status's reason phrase: Jetty's detail stays out of the response.
 */
final class JsonErrorHandler extends ErrorHandler {

    JsonErrorHandler() {
        setCacheControl(SecurityHeaders.CACHE_CONTROL);
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Json.CONTENT_TYPE);
        response.getHeaders().put("X-Content-Type-Options", SecurityHeaders.CONTENT_TYPE_OPTIONS);
        if (!response.getHeaders().contains(RequestIds.HEADER)) {
            // Jetty refused the request before any handler ran, so no id was given yet.
            response.getHeaders().put(RequestIds.HEADER,
                    RequestIds.acceptOrGenerate(request.getHeaders().get(RequestIds.HEADER)));
        }
        response.write(true, ByteBuffer.wrap(body(code)), callback);
    }

    private static byte[] body(int status) {
        return Json.bytes(new ApiError(status, HttpStatus.getMessage(status)));
    }
}
