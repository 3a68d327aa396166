package dev.plantstore.core;

/**
 * A plant to add to the store, as the interface's create operation receives it.
 *
 * <p>Every {@code long} is a valid id, negative ones included. Construction validates the texts, so a {@code NewPlant}
 * that exists is one the store accepts (bar a duplicate id).
 *
 * @param id   the plant's identifier, unique within a store
 * @param name the plant's name; required and not empty
 * @param tag  the plant's type, or {@code null} for none
 */
public record NewPlant(long id, String name, String tag) {

    /**
     * Validates the texts.
     *
     * @throws InvalidPlantException when the name is missing or empty, or either text is not valid Unicode
     */
    public NewPlant {
        PlantText.requireName(name);
        PlantText.requireTag(tag);
    }

    /** Convenience for a plant without a tag. */
    public NewPlant(long id, String name) {
        this(id, name, null);
    }

    /** The plant as the store returns it once created. */
    public Plant plant() {
        return new Plant(name, tag);
    }
}
