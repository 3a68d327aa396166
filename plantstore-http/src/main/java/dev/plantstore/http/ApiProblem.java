package dev.plantstore.http;

import dev.plantstore.core.ApiError;

/**
 * A request the API refuses, with the status and the message the client gets. Thrown from deep in decoding and
 * caught by {@link GuardedHandler}, so the code that does the work reads as the happy path.
 */
final class ApiProblem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    ApiProblem(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }

    ApiError toError() {
        return new ApiError(status, getMessage());
    }
}
