package dev.plantstore.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeoutException;

/**
 * Reads a JSON request body within a size limit. The limit holds whether or not the client declared a length: a
 * declared length over it is refused before reading, and an undeclared (chunked) body is read only to one byte past
 * it.
 */
final class RequestBody {

    private RequestBody() {
    }

    static byte[] readJson(Context ctx, int maxBytes) {
        requireJsonMediaType(ctx.req().getContentType());
        long declaredLength = ctx.req().getContentLengthLong();
        if (declaredLength > maxBytes) {
            throw tooLarge(maxBytes);
        }
        // A declared length is read into an array of exactly that size; the server delivers no byte past it.
        // Without one, reading one byte past the limit tells a body at the limit from a larger one.
        int readLimit = declaredLength >= 0 ? (int) declaredLength : maxBytes + 1;
        byte[] body;
        try (InputStream in = ctx.req().getInputStream()) {
            body = in.readNBytes(readLimit);
        } catch (IOException e) {
            if (e.getCause() instanceof TimeoutException) {
                throw new ApiProblem(408, "request body did not arrive in time");
            }
            throw new ApiProblem(400, "request body could not be read");
        }
        if (body.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        return body;
    }

    /**
     * {@code application/json} in any letter case, with or without parameters; a charset, if given, must be UTF-8,
     * the only encoding JSON allows (RFC 8259).
     */
    static void requireJsonMediaType(String contentType) {
        if (contentType == null) {
            throw unsupportedMediaType("Content-Type header is required: application/json");
        }
        if (contentType.equalsIgnoreCase(Json.CONTENT_TYPE)) {
            return;
        }
        String[] parts = contentType.split(";");
        if (!parts[0].strip().equalsIgnoreCase(Json.CONTENT_TYPE)) {
            throw unsupportedMediaType("Content-Type must be application/json");
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            int equals = parameter.indexOf('=');
            if (equals > 0 && parameter.substring(0, equals).strip().equalsIgnoreCase("charset")) {
                String charset = parameter.substring(equals + 1).strip().replace("\"", "");
                if (!charset.equalsIgnoreCase("utf-8")) {
                    throw unsupportedMediaType("Content-Type charset must be utf-8");
                }
            }
        }
    }

    private static ApiProblem unsupportedMediaType(String message) {
        return new ApiProblem(415, message);
    }

    private static ApiProblem tooLarge(int maxBytes) {
        return new ApiProblem(413, "request body must not exceed " + maxBytes + " bytes");
    }
}
