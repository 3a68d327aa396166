package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.core.Plant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The core's JSON of a plant, which every body and event carries, is JSON a parser reads back as the same plant,
 * whatever its text holds; it leaves an absent tag out and escapes what JavaScript would take for a line's end.
 */
class PlantJsonTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aPlantIsItsNameAndTagAndAnAbsentTagIsLeftOut() {
        assertEquals("{\"name\":\"Monstera\",\"tag\":\"aroid\"}", new Plant("Monstera", "aroid").toJson());
        assertEquals("{\"name\":\"Monstera\"}", new Plant("Monstera", null).toJson());
        assertEquals("{\"name\":\"Monstera\",\"tag\":\"\"}", new Plant("Monstera", "").toJson());
    }

    @Test
    void quotesBackslashesControlCharactersAndLineSeparatorsAreEscaped() {
        assertEquals("{\"name\":\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u2028h\\u2029\"}",
                new Plant("a\"b\\c\nd\re\tf\u0001g\u2028h\u2029", null).toJson());
    }

    @Test
    void everyPlantReadsBackAsItself() throws Exception {
        var random = new Random(20261202);
        for (int i = 0; i < 20_000; i++) {
            var plant = new Plant(text(random, 1 + random.nextInt(12)),
                    random.nextBoolean() ? null : text(random, random.nextInt(12)));
            JsonNode read = MAPPER.readTree(plant.toJson());
            assertEquals(plant.name(), read.get("name").textValue(), plant.toJson());
            if (plant.tag() == null) {
                assertFalse(read.has("tag"), plant.toJson());
            } else {
                assertEquals(plant.tag(), read.get("tag").textValue(), plant.toJson());
            }
        }
    }

    /** Text a plant may hold: any code point but U+0000 and lone surrogates, the ones JSON escapes most often. */
    private static String text(Random random, int codePoints) {
        var text = new StringBuilder();
        String tricky = "\"\\/\n\r\t\b\f\u2028\u2029\u007f\u00e9";
        while (text.codePointCount(0, text.length()) < codePoints) {
            int pick = random.nextInt(4);
            int codePoint = switch (pick) {
                case 0 -> 1 + random.nextInt(0x1f);
                case 1 -> tricky.charAt(random.nextInt(tricky.length()));
                case 2 -> 0x10000 + random.nextInt(0x100000 - 0x10000);
                default -> 0x20 + random.nextInt(0xd800 - 0x20);
            };
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }
}
