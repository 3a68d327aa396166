package dev.plantstore.core;

/**
 * The outcome of {@link PlantStore#create(NewPlant)}. The interface is sealed: there are exactly these three, and a
 * store decides between them atomically, so of many concurrent creates of one id exactly one is {@link Created}.
 */
public sealed interface CreateResult {

    /** The plant was added; {@code plant} is what the store now holds for the id. */
    record Created(Plant plant) implements CreateResult {
    }

    /**
     * The id already holds exactly this plant (same name, same tag; no tag and a {@code null} tag are the same), and
     * nothing was changed. A retried create, after a time-out or a lost answer, ends here when its first attempt
     * landed, so a caller can treat it as {@link Created}.
     */
    record AlreadyStored(Plant plant) implements CreateResult {
    }

    /** The id holds a different plant; nothing was changed. */
    record Duplicate(long id) implements CreateResult {
    }
}
