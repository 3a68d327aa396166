package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.post;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every malformed NewPlant is a 400 whose message names the problem, and nothing is stored. */
class CreateBodyValidationTest {

    private final PlantStore store = PlantStores.inMemory();

    private void assertRefused(String body, String expectedMessagePart) {
        withServer(store, (server, client) -> {
            String message = assertError(create(client, body), 400);
            assertTrue(message.contains(expectedMessagePart), () -> "message '" + message + "' should say '"
                    + expectedMessagePart + "'");
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"", " ", "\n\t "})
    void emptyBodyIs400(String body) {
        assertRefused(body, "body is empty");
    }

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"{", "id=1&name=x", "{\"id\":1,\"name\":\"x\",}", "{'id':1,'name':'x'}", "nul",
            "{\"id\":1,\"name\":\"x\"", "{\"id\":01,\"name\":\"x\"}"})
    void bodyThatIsNotJsonIs400(String body) {
        assertRefused(body, "body is not valid JSON");
    }

    @ParameterizedTest(name = "body [{0}]")
    @CsvSource(delimiter = '|', value = {
        "[{\"id\":1,\"name\":\"x\"}] | got an array",
        "\"plant\"                 | got a string",
        "42                        | got an integer",
        "null                      | got null",
        "true                      | got a boolean"})
    void bodyThatIsNotAnObjectIs400(String body, String expected) {
        assertRefused(body, "body must be a JSON object, " + expected);
    }

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"{\"id\":1,\"name\":\"x\"}{}", "{\"id\":1,\"name\":\"x\"} 5",
            "{\"id\":1,\"name\":\"x\"}[]"})
    void trailingContentAfterTheObjectIs400(String body) {
        assertRefused(body, "nothing after it");
    }

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"{\"name\":\"x\"}", "{\"ID\":1,\"name\":\"x\"}"})
    void missingIdIs400(String body) {
        assertRefused(body, "id is required");
    }

    @ParameterizedTest(name = "id {0}")
    @CsvSource(delimiter = '|', value = {
        "null      | got null",
        "\"1\"     | got a string",
        "1.5       | got a number with a fraction or exponent",
        "1.0       | got a number with a fraction or exponent",
        "1e3       | got a number with a fraction or exponent",
        "true      | got a boolean",
        "[1]       | got an array",
        "{\"v\":1} | got an object"})
    void idThatIsNotAJsonIntegerIs400(String id, String expected) {
        assertRefused("{\"id\":" + id + ",\"name\":\"x\"}", "id must be a JSON integer, " + expected);
    }

    @ParameterizedTest(name = "id {0}")
    @ValueSource(strings = {"9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"})
    void idOutsideInt64Is400(String id) {
        assertRefused("{\"id\":" + id + ",\"name\":\"x\"}", "id must be within the int64 range");
    }

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"{\"id\":1}", "{\"id\":1,\"tag\":\"t\"}"})
    void missingNameIs400(String body) {
        assertRefused(body, "name is required");
    }

    @ParameterizedTest(name = "name {0}")
    @CsvSource(delimiter = '|', value = {
        "null     | got null",
        "5        | got an integer",
        "false    | got a boolean",
        "[\"x\"]  | got an array",
        "{}       | got an object"})
    void nameThatIsNotAStringIs400(String name, String expected) {
        assertRefused("{\"id\":1,\"name\":" + name + "}", "name must be a string, " + expected);
    }

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"{\"id\":1,\"name\":\"\"}"})
    void emptyNameIs400(String body) {
        assertRefused(body, "name must not be empty");
    }

    @ParameterizedTest(name = "tag {0}")
    @CsvSource(delimiter = '|', value = {
        "7       | got an integer",
        "true    | got a boolean",
        "[]      | got an array",
        "{}      | got an object"})
    void tagThatIsNeitherStringNorNullIs400(String tag, String expected) {
        assertRefused("{\"id\":1,\"name\":\"x\",\"tag\":" + tag + "}", "tag must be a string or null, " + expected);
    }

    @ParameterizedTest(name = "body [{0}]")
    @CsvSource(delimiter = '|', value = {
        "{\"id\":1,\"id\":2,\"name\":\"x\"}             | id appears more than once",
        "{\"id\":1,\"name\":\"x\",\"name\":\"y\"}       | name appears more than once",
        "{\"id\":1,\"name\":\"x\",\"tag\":null,\"tag\":\"t\"} | tag appears more than once"})
    void aFieldGivenTwiceIs400(String body, String expected) {
        assertRefused(body, expected);
    }

    @ParameterizedTest(name = "name {0}")
    @ValueSource(strings = {"\\ud800", "a\\udc00b", "\\udc00\\ud800"})
    void unpairedSurrogateEscapeIs400(String escapedName) {
        assertRefused("{\"id\":1,\"name\":\"" + escapedName + "\"}", "name must be valid Unicode text");
    }

    @ParameterizedTest(name = "body [{0}]")
    @CsvSource(delimiter = '|', value = {
        "{\"id\":1,\"name\":\"a\\u0000b\"}          | name must not contain U+0000",
        "{\"id\":1,\"name\":\"a\",\"tag\":\"\\u0000\"} | tag must not contain U+0000"})
    void nulCharacterIs400(String body, String expected) {
        assertRefused(body, expected);
    }

    @ParameterizedTest(name = "bytes {0}")
    @ValueSource(strings = {"ff", "c0af", "eda080", "e282"})
    void bodyThatIsNotUtf8Is400(String hex) {
        byte[] prefix = "{\"id\":1,\"name\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] bad = java.util.HexFormat.of().parseHex(hex);
        byte[] suffix = "\"}".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] body = new byte[prefix.length + bad.length + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        System.arraycopy(bad, 0, body, prefix.length, bad.length);
        System.arraycopy(suffix, 0, body, prefix.length + bad.length, suffix.length);
        withServer(store, (server, client) -> {
            var response = post(client, BodyPublishers.ofByteArray(body), request -> request
                    .header("Authorization", BEARER)
                    .header("Content-Type", "application/json"));
            assertEquals("body is not valid UTF-8", assertError(response, 400));
            assertEquals(Optional.empty(), store.find(1));
        });
    }
}
