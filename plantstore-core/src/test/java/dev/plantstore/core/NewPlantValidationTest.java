package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NewPlantValidationTest {

    @Test
    void nameIsRequired() {
        var e = assertThrows(InvalidPlantException.class, () -> new NewPlant(1, null, "tag"));
        assertEquals("name is required", e.getMessage());
    }

    @Test
    void nameMustNotBeEmpty() {
        var e = assertThrows(InvalidPlantException.class, () -> new NewPlant(1, "", null));
        assertEquals("name must not be empty", e.getMessage());
    }

    @Test
    void tagIsOptional() {
        assertNull(new NewPlant(1, "Fern").tag());
        assertEquals("Fern", new NewPlant(1, "Fern").plant().name());
    }

    @Test
    void anyLongIsAnId() {
        assertEquals(Long.MIN_VALUE, new NewPlant(Long.MIN_VALUE, "x").id());
        assertEquals(Long.MAX_VALUE, new NewPlant(Long.MAX_VALUE, "x").id());
    }

    @Test
    void unpairedHighSurrogateInNameIsRefused() {
        var e = assertThrows(InvalidPlantException.class, () -> new NewPlant(1, "ab\uD800", null));
        assertEquals("name must be valid Unicode text (unpaired surrogate at index 2)", e.getMessage());
    }

    @Test
    void unpairedLowSurrogateInTagIsRefused() {
        var e = assertThrows(InvalidPlantException.class, () -> new NewPlant(1, "ok", "\uDC00x"));
        assertEquals("tag must be valid Unicode text (unpaired surrogate at index 0)", e.getMessage());
    }

    @Test
    void nulCharacterIsRefusedInNameAndTag() {
        var name = assertThrows(InvalidPlantException.class, () -> new NewPlant(1, "a\u0000", null));
        assertEquals("name must not contain U+0000 (at index 1)", name.getMessage());
        var tag = assertThrows(InvalidPlantException.class, () -> new NewPlant(1, "a", "\u0000"));
        assertEquals("tag must not contain U+0000 (at index 0)", tag.getMessage());
    }

    @Test
    void reversedSurrogatePairIsRefused() {
        assertThrows(InvalidPlantException.class, () -> new NewPlant(1, "\uDC00\uD800", null));
    }

    @Test
    void charactersOutsideTheBasicPlaneAreAccepted() {
        String cactus = "\uD83C\uDF35 cactus";
        assertEquals(cactus, new NewPlant(1, cactus, cactus).plant().tag());
    }

    @Test
    void plantKeepsTheNameAndTagOfTheNewPlant() {
        assertEquals(new Plant("Monstera", "aroid"), new NewPlant(7, "Monstera", "aroid").plant());
    }

    @Test
    void plantRefusesAnEmptyNameToo() {
        assertThrows(InvalidPlantException.class, () -> new Plant("", null));
    }

    @Test
    void optionalTagIsEmptyWhenThereIsNoTag() {
        assertEquals(java.util.Optional.empty(), new Plant("Fern", null).optionalTag());
        assertEquals(java.util.Optional.of("fern"), new Plant("Fern", "fern").optionalTag());
    }
}
