package dev.plantstore.http;

import io.javalin.http.Context;
import io.javalin.http.Header;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Reads a JSON request body within a size limit. The limit holds whether or not the client declared a length: a
 * declared length over it is refused before reading, and an undeclared (chunked) body is read only to one byte past
 * it.
 */
final class RequestBody {

    /** The most characters of a client's value an answer repeats. */
    private static final int MOST_QUOTED = 64;

    private RequestBody() {
    }

    static byte[] readJson(Context ctx, int maxBytes) {
        List<String> contentTypes = Collections.list(ctx.req().getHeaders(Header.CONTENT_TYPE));
        if (contentTypes.size() > 1) {
            // As with two Authorization headers: proxies disagree about which of two wins.
            throw new ApiProblem(400, "send one Content-Type header, not " + contentTypes.size());
        }
        requireJsonMediaType(contentTypes.isEmpty() ? null : contentTypes.get(0));
        requireIdentityCoding(ctx);
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
            throw unsupportedMediaType("Content-Type must be application/json, got " + quoted(parts[0].strip()));
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            int equals = parameter.indexOf('=');
            if (equals > 0 && parameter.substring(0, equals).strip().equalsIgnoreCase("charset")) {
                String charset = parameter.substring(equals + 1).strip().replace("\"", "");
                if (!charset.equalsIgnoreCase("utf-8")) {
                    throw unsupportedMediaType("Content-Type charset must be utf-8, got " + quoted(charset));
                }
            }
        }
    }

    /**
     * A body must come as it is: a compressed one (any content coding but {@code identity}) would otherwise be read as
     * JSON and refused as malformed, or worse, stored as its compressed bytes. RFC 9110 section 15.5.16: 415, with
     * {@code Accept-Encoding} naming what is accepted.
     */
    private static void requireIdentityCoding(Context ctx) {
        for (String header : Collections.list(ctx.req().getHeaders(Header.CONTENT_ENCODING))) {
            for (String coding : header.split(",")) {
                if (!coding.isBlank() && !coding.strip().equalsIgnoreCase("identity")) {
                    ctx.header(Header.ACCEPT_ENCODING, "identity");
                    throw unsupportedMediaType("Content-Encoding must be identity: send the body uncompressed");
                }
            }
        }
    }

    /**
     * What a client sent, fit to repeat in an answer: at most {@value #MOST_QUOTED} characters, anything but printable
     * ASCII shown as {@code ?}, in single quotes.
     */
    static String quoted(String given) {
        var shown = new StringBuilder("'");
        for (int i = 0; i < Math.min(given.length(), MOST_QUOTED); i++) {
            char c = given.charAt(i);
            shown.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return shown.append(given.length() > MOST_QUOTED ? "...'" : "'").toString();
    }

    private static ApiProblem unsupportedMediaType(String message) {
        return new ApiProblem(415, message);
    }

    private static ApiProblem tooLarge(int maxBytes) {
        return new ApiProblem(413, "request body must not exceed " + maxBytes + " bytes");
    }
}
