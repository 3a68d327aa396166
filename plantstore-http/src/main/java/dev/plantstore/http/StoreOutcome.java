package dev.plantstore.http;

import dev.plantstore.core.CreateResult;

/** How a store operation ended, as the metrics' {@code outcome} label and the traces' attribute both name it. */
enum StoreOutcome {
    CREATED("created"), ALREADY_STORED("already_stored"), DUPLICATE("duplicate"), DELETED("deleted"),
    ABSENT("absent"), UNAVAILABLE("unavailable"), FAILED("failed");

    final String label;

    StoreOutcome(String label) {
        this.label = label;
    }

    static StoreOutcome of(CreateResult result) {
        return result instanceof CreateResult.Created ? CREATED
                : result instanceof CreateResult.AlreadyStored ? ALREADY_STORED
                : DUPLICATE;
    }

    static StoreOutcome ofDelete(boolean found) {
        return found ? DELETED : ABSENT;
    }
}
