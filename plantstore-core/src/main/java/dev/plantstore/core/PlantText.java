package dev.plantstore.core;

/** The text rules of plant fields, shared by {@link Plant} and {@link NewPlant}. */
final class PlantText {

    private PlantText() {
    }

    static void requireName(String name) {
        if (name == null) {
            throw new InvalidPlantException("name is required");
        }
        if (name.isEmpty()) {
            throw new InvalidPlantException("name must not be empty");
        }
        requireValidUnicode("name", name);
    }

    static void requireTag(String tag) {
        if (tag != null) {
            requireValidUnicode("tag", tag);
        }
    }

    /**
     * A Java string can hold an unpaired UTF-16 surrogate (JSON's {@code "\ud800"} decodes to one), which is not a
     * Unicode character: it cannot be encoded as UTF-8, so storing it would lose data on the way back out. U+0000 is
     * refused too: PostgreSQL cannot store it in text, and every store must accept exactly the same plants.
     */
    private static void requireValidUnicode(String field, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                throw new InvalidPlantException(field + " must not contain U+0000 (at index " + i + ")");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidPlantException(
                        field + " must be valid Unicode text (unpaired surrogate at index " + i + ")");
            }
        }
    }
}
