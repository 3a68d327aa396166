package dev.plantstore.core;

/**
 * Thrown when a {@link NewPlant} or {@link Plant} would break the interface's rules. The message names the field and
 * what was expected, and is safe to show to the client that sent the data.
 */
public final class InvalidPlantException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    InvalidPlantException(String message) {
        super(message);
    }
}
