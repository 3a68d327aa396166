package dev.plantstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** The documented Error answer, checked on a raw HTTP/1.1 response as read from a socket. */
public final class ErrorResponses {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ErrorResponses() {
    }

    /**
     * Asserts that {@code response} has {@code status}, {@code Content-Type: application/json} and the body
     * {@code {"error": status, "message": text}}: those two fields only, the message not blank.
     */
    public static void assertError(String response, int status) {
        assertTrue(response.startsWith("HTTP/1.1 " + status + " "), response);
        assertTrue(response.contains("\r\nContent-Type: application/json"), response);
        JsonNode error;
        try {
            error = JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
        } catch (IOException e) {
            throw new AssertionError("body is not JSON: " + response, e);
        }
        assertEquals(2, error.size(), response);
        assertEquals(status, error.path("error").intValue(), response);
        assertTrue(error.path("message").isTextual(), response);
        assertFalse(error.path("message").asText().isBlank(), response);
    }
}
