package dev.plantstore.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.plantstore.core.Plant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PackedPlantTest {

    private final SharedTags sharedTags = new SharedTags(2);

    private Plant roundTrip(Plant plant) {
        return PackedPlant.unpack(PackedPlant.pack(plant, sharedTags), sharedTags);
    }

    @Test
    void aPlantWithoutTagReadsBackWithoutTag() {
        Plant back = roundTrip(new Plant("Monstera", null));
        assertEquals("Monstera", back.name());
        assertNull(back.tag());
    }

    @ParameterizedTest
    @ValueSource(strings = {"M", "Monstera deliciosa", "Ficus Lyrata \u00e9\u00e8", "\u6a39\u6728",
        "\ud83c\udf35 cactus", "a\u0080b\u07ffc\u0800d\uffff"})
    void everyValidNameReadsBackExactly(String name) {
        assertEquals(new Plant(name, "fern"), roundTrip(new Plant(name, "fern")));
        assertEquals(new Plant(name, null), roundTrip(new Plant(name, null)));
    }

    @Test
    void aSharedTagIsKeptAsItsNumberNotAsText() {
        byte[] packed = PackedPlant.pack(new Plant("Plant-0001", "succulent"), sharedTags);
        assertEquals(1 + "Plant-0001".length(), packed.length);
        assertEquals(new Plant("Plant-0001", "succulent"), PackedPlant.unpack(packed, sharedTags));
    }

    @Test
    void aTagBeyondTheSharedTableIsKeptWithThePlant() {
        roundTrip(new Plant("a", "first"));
        roundTrip(new Plant("b", "second"));
        byte[] packed = PackedPlant.pack(new Plant("Plant-0001", "third \ud83c\udf3f"), sharedTags);
        assertEquals(new Plant("Plant-0001", "third \ud83c\udf3f"), PackedPlant.unpack(packed, sharedTags));
        assertEquals(SharedTags.NOT_SHARED, sharedTags.numberOf("third \ud83c\udf3f"));
    }

    @Test
    void anEmptyTagStaysEmptyNotAbsent() {
        assertEquals("", roundTrip(new Plant("Monstera", "")).tag());
        assertEquals("", PackedPlant.unpack(PackedPlant.pack(new Plant("x", ""), new SharedTags(0)), sharedTags).tag());
    }

    @Test
    void aNameLongerThanOneLengthByteReadsBack() {
        String longName = "n".repeat(70_000);
        Plant plant = new Plant(longName, "t".repeat(SharedTags.MAX_SHARED_LENGTH + 1));
        assertEquals(plant, roundTrip(plant));
    }

    @Test
    void sharedTagsAreReadBackAsTheOneSharedInstance() {
        Plant first = roundTrip(new Plant("a", new String("aroid".toCharArray())));
        Plant second = roundTrip(new Plant("b", new String("aroid".toCharArray())));
        assertSame(first.tag(), second.tag());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE})
    void variableLengthNumbersRoundTrip(int value) {
        byte[] bytes = new byte[5];
        int end = PackedPlant.writeVarInt(bytes, 0, value);
        assertEquals(PackedPlant.varIntLength(value), end);
        assertEquals(value, PackedPlant.readVarInt(bytes, 0));
    }
}
