package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.core.NewPlant;

/**
 * Fuzz targets for what a client controls before the store is reached: the body and the path id. Whatever the bytes,
 * the outcome is a valid NewPlant or a 400 whose Error body is well-formed JSON; nothing else may escape, since
 * anything else would become a 500. In a normal test run each target replays the inputs kept under
 * {@code src/test/resources/dev/plantstore/http/RequestDecodingFuzzTestInputs/}; with {@code JAZZER_FUZZ=1} Jazzer
 * searches for new ones and adds any that fail there (see docs/operations.md).
 */
class RequestDecodingFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static void assertWellFormed400(ApiProblem problem) throws Exception {
        assertEquals(400, problem.toError().error());
        JsonNode error = JSON.readTree(Json.bytes(problem.toError()));
        assertEquals(400, error.get("error").intValue());
        assertFalse(error.get("message").textValue().isBlank());
        assertEquals(2, error.size());
    }

    @FuzzTest
    void anyBodyDecodesToANewPlantOrIsA400(@NotNull byte[] body) throws Exception {
        NewPlant plant;
        try {
            plant = NewPlantDecoder.decode(body);
        } catch (ApiProblem problem) {
            assertWellFormed400(problem);
            return;
        }
        assertNotNull(plant.name());
        assertFalse(plant.name().isEmpty());
    }

    /** Javalin never hands over a null path parameter, so the fuzzer need not try one. */
    @FuzzTest
    void anyPathIdParsesOrIsA400(@NotNull String raw) throws Exception {
        try {
            long id = PathId.parse(raw);
            assertEquals(Long.toString(id), raw.equals("-0") ? "0" : raw);
        } catch (ApiProblem problem) {
            assertWellFormed400(problem);
        }
    }
}
