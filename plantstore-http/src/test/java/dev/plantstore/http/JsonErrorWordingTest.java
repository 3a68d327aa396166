package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.ApiError;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** A body that is not JSON is refused in the project's words: never a parser's class, feature or method names. */
class JsonErrorWordingTest {

    private static final List<String> LIBRARY_WORDS = List.of("jackson", "fasterxml", "feature", "constraints",
            "allow_", "()", "jsonparser", "jsontoken", "enable", "source:", "`", "exception");

    private static final List<String> NOT_JSON = List.of(
            "{\"id\":NaN,\"name\":\"Fern\"}",
            "{\"id\":Infinity,\"name\":\"Fern\"}",
            "{\"id\":1,\"name\":\"Fern\",}",
            "{id:1,\"name\":\"Fern\"}",
            "{'id':1,\"name\":\"Fern\"}",
            "{\"id\":1 /* c */,\"name\":\"Fern\"}",
            "{\"id\":01,\"name\":\"Fern\"}",
            "{\"id\":+1,\"name\":\"Fern\"}",
            "{\"id\":1,\"name\":\"Fe\u0001rn\"}",
            "{\"id\":1,\"name\":\"Fern\\x\"}",
            "{\"id\":1,\"name\":\"Fern",
            "{\"id\":" + "1".repeat(5_000) + ",\"name\":\"Fern\"}",
            "{\"id\":1,\"name\":\"Fern\",\"x\":" + "[".repeat(3_000) + "]".repeat(3_000) + "}",
            "{\"id\":1,\"name\":\"Fern\",\"x\":1." + "5".repeat(5_000) + "}");

    private static ApiError refusal(String body) {
        try {
            NewPlantDecoder.decode(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            throw new AssertionError("decoded: " + body);
        } catch (ApiProblem problem) {
            return problem.toError();
        }
    }

    @Test
    void eachLimitOfTheParserIsNamedInItsRefusal() {
        assertEquals("body holds a value too long: numbers may have at most 1000 characters",
                refusal("{\"id\":" + "1".repeat(1_001) + ",\"name\":\"Fern\"}").message());
        assertEquals("body holds a field name too long: names may have at most 50000 characters",
                refusal("{\"id\":1,\"name\":\"Fern\",\"" + "x".repeat(50_001) + "\":1}").message());
        assertEquals("body nests deeper than 1000 levels",
                refusal("{\"id\":1,\"x\":" + "[".repeat(1_001) + "]".repeat(1_001) + "}").message());
    }

    @Test
    void aBodyThatIsNotJsonGetsA400InTheProjectsWords() {
        for (String body : NOT_JSON) {
            ApiError error = refusal(body);
            String message = error.message();
            assertTrue(error.error() == 400, message);
            assertTrue(message.startsWith("body is not valid JSON") || message.startsWith("body nests")
                    || message.contains("too long"), message);
            String lower = message.toLowerCase(Locale.ROOT);
            for (String word : LIBRARY_WORDS) {
                assertFalse(lower.contains(word), () -> "'" + word + "' in: " + message);
            }
        }
    }
}
