package dev.plantstore.core;

import java.util.Objects;

/**
 * The interface's {@code Error} record: the body of every error response. Named {@code ApiError} so that it does not
 * shadow {@link java.lang.Error}.
 *
 * @param error   the numeric error indicator; this implementation uses the HTTP status code
 * @param message what went wrong, naming the field or header at fault where there is one; never null
 */
public record ApiError(int error, String message) {

    public ApiError {
        Objects.requireNonNull(message, "null message");
    }
}
