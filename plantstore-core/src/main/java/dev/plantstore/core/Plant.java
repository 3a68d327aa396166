package dev.plantstore.core;

import java.util.Optional;

/**
 * A stored plant as the interface returns it: a name and an optional tag.
 *
 * @param name the plant's name; never null or empty
 * @param tag  the tag that specifies the plant's type, or {@code null} when the plant has none
 */
public record Plant(String name, String tag) {

    /**
     * Validates the texts.
     *
     * @throws InvalidPlantException when the name is missing or empty, or either text is not valid Unicode
     */
    public Plant {
        PlantText.requireName(name);
        PlantText.requireTag(tag);
    }

    /** The tag, or empty when the plant has none. */
    public Optional<String> optionalTag() {
        return Optional.ofNullable(tag);
    }
}
