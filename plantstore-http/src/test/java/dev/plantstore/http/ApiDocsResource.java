package dev.plantstore.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The bundled openapi.yaml, read as the server reads it. */
final class ApiDocsResource {

    private ApiDocsResource() {
    }

    static byte[] yaml() {
        try (InputStream in = ApiDocs.class.getResourceAsStream("openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml is not on the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
