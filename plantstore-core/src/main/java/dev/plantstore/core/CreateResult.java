package dev.plantstore.core;

/**
 * The outcome of {@link PlantStore#create(NewPlant)}: the plant was created, or its id was already taken. The interface is
 * sealed: there are exactly these two.
 */
public sealed interface CreateResult {

    /** The plant was added; {@code plant} is what the store now holds for the id. */
    record Created(Plant plant) implements CreateResult {
    }

    /** A plant with this id is already in the store; nothing was changed. */
    record Duplicate(long id) implements CreateResult {
    }
}
