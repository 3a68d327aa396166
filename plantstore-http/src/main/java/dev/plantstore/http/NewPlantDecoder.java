package dev.plantstore.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.plantstore.core.InvalidPlantException;
import dev.plantstore.core.NewPlant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Turns a request body into a {@link NewPlant}, or into an {@link ApiProblem} (400) that says which field is wrong
 * and what was expected. Works on the token stream rather than a data binder so that {@code "5"}, {@code 1.5} and
 * {@code 1e3} are refused as ids instead of being coerced.
 */
final class NewPlantDecoder {

    private NewPlantDecoder() {
    }

    static NewPlant decode(byte[] body) {
        String text = strictUtf8(body);
        try (JsonParser parser = Json.FACTORY.createParser(text)) {
            return readNewPlant(parser);
        } catch (JsonProcessingException e) {
            throw notJson(e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from memory cannot fail", e);
        }
    }

    /**
     * JSON text is UTF-8 (RFC 8259). Decoding strictly up front refuses what a lenient decoder would quietly turn into
     * other characters: overlong forms, encoded surrogates, truncated sequences.
     */
    private static String strictUtf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw badRequest("body is not valid UTF-8");
        }
    }

    private static NewPlant readNewPlant(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            throw badRequest("body is empty; expected a JSON object with id, name and optional tag");
        }
        if (first != JsonToken.START_OBJECT) {
            throw badRequest("body must be a JSON object, got " + describe(first));
        }
        Long id = null;
        String name = null;
        String tag = null;
        boolean tagSeen = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "id" -> id = readId(parser, value, id != null);
                case "name" -> name = readName(parser, value, name != null);
                case "tag" -> {
                    tag = readTag(parser, value, tagSeen);
                    tagSeen = true;
                }
                default -> parser.skipChildren();
            }
        }
        if (parser.nextToken() != null) {
            throw badRequest("body must hold a single JSON object and nothing after it");
        }
        if (id == null) {
            throw badRequest("id is required");
        }
        if (name == null) {
            throw badRequest("name is required");
        }
        try {
            return new NewPlant(id, name, tag);
        } catch (InvalidPlantException e) {
            throw badRequest(e.getMessage());
        }
    }

    private static long readId(JsonParser parser, JsonToken value, boolean seen) throws IOException {
        refuseRepeat("id", seen);
        if (value != JsonToken.VALUE_NUMBER_INT) {
            throw badRequest("id must be a JSON integer, got " + describe(value));
        }
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw badRequest("id must be within the int64 range " + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
        }
        return parser.getLongValue();
    }

    private static String readName(JsonParser parser, JsonToken value, boolean seen) throws IOException {
        refuseRepeat("name", seen);
        if (value != JsonToken.VALUE_STRING) {
            throw badRequest("name must be a string, got " + describe(value));
        }
        return parser.getText();
    }

    private static String readTag(JsonParser parser, JsonToken value, boolean seen) throws IOException {
        refuseRepeat("tag", seen);
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        if (value != JsonToken.VALUE_STRING) {
            throw badRequest("tag must be a string or null, got " + describe(value));
        }
        return parser.getText();
    }

    /** Two values for one field leave it unclear which the client meant, so neither is taken. */
    private static void refuseRepeat(String field, boolean seen) {
        if (seen) {
            throw badRequest(field + " appears more than once");
        }
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a number with a fraction or exponent";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : token.asString();
        };
    }

    /**
     * Where the body stops being JSON, in the project's words: the parser's own message names its features and
     * methods ({@code enable JsonReadFeature...}), which mean nothing to a client and tell an attacker the library.
     */
    private static ApiProblem notJson(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return beyondLimit(String.valueOf(e.getOriginalMessage()).toLowerCase(Locale.ROOT));
        }
        var location = e.getLocation();
        String where = location == null
                ? ""
                : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        return badRequest("body is not valid JSON" + where);
    }

    /** Which of the parser's limits the body passed, told by the start of the parser's own message. */
    private static ApiProblem beyondLimit(String parserMessage) {
        StreamReadConstraints limits = Json.FACTORY.streamReadConstraints();
        if (parserMessage.contains("nesting")) {
            return badRequest("body nests deeper than " + limits.getMaxNestingDepth() + " levels");
        }
        if (parserMessage.startsWith("name")) {
            return badRequest("body holds a field name too long: names may have at most " + limits.getMaxNameLength()
                    + " characters");
        }
        if (parserMessage.startsWith("number")) {
            return badRequest("body holds a value too long: numbers may have at most " + limits.getMaxNumberLength()
                    + " characters");
        }
        // The factory keeps the parser's default limits, of which only a string's length is left.
        return badRequest("body holds a value too long: strings may have at most " + limits.getMaxStringLength()
                + " characters");
    }

    private static ApiProblem badRequest(String message) {
        return new ApiProblem(400, message);
    }
}
