package dev.plantstore.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.plantstore.core.ApiError;
import dev.plantstore.core.Plant;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * JSON out, every byte of it that this package writes (the OpenAPI document as JSON too; a plant as the core writes
 * it), and the one factory every JSON parser and generator in this package comes from.
 */
final class Json {

    static final String CONTENT_TYPE = "application/json";

    /**
     * Thread-safe, and costly enough to build that there is one. Characters outside the Basic Multilingual Plane are
     * written as UTF-8, as every other character is, rather than as a pair of surrogate escapes.
     */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private Json() {
    }

    /** A plant's body, as the core writes it for the events too: faster than Jackson's generator (bench/README.md). */
    static void respond(Context ctx, int status, Plant plant) {
        sendDirectly(ctx, status, plant.toJson().getBytes(StandardCharsets.UTF_8));
    }

    static void respond(Context ctx, ApiError error) {
        send(ctx, error.error(), bytes(error));
    }

    static byte[] bytes(ApiError error) {
        return write(generator -> {
            generator.writeStartObject();
            generator.writeNumberField("error", error.error());
            generator.writeStringField("message", error.message());
            generator.writeEndObject();
        });
    }

    static void respondStatus(Context ctx, int code, String status) {
        send(ctx, code, write(generator -> {
            generator.writeStartObject();
            generator.writeStringField("status", status);
            generator.writeEndObject();
        }));
    }

    private static void send(Context ctx, int status, byte[] body) {
        ctx.status(status).contentType(CONTENT_TYPE).result(body);
    }

    /**
     * Writes a success body to the response itself rather than through {@code ctx.result}, for which Javalin allocates
     * an 8 KiB copy buffer per response: half of what the server allocated under load. Errors keep going through
     * {@code ctx.result}, so that an embedding application's error handler for their status can still replace them.
     */
    private static void sendDirectly(Context ctx, int status, byte[] body) {
        ctx.status(status).contentType(CONTENT_TYPE);
        ctx.res().setContentLength(body.length);
        try {
            ctx.res().getOutputStream().write(body);
        } catch (IOException clientGone) {
            // The client closed the connection first: there is no one to answer, and the access log has the status.
        }
    }

    /** What goes into one JSON text, written to a generator of {@link #FACTORY}. */
    interface Writer {
        void writeTo(JsonGenerator generator) throws IOException;
    }

    static byte[] write(Writer writer) {
        try (var bytes = new ByteArrayBuilder();
             var generator = FACTORY.createGenerator(bytes)) {
            writer.writeTo(generator);
            generator.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
    }
}
