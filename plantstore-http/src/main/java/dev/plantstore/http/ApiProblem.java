package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import org.eclipse.jetty.io.QuietException;

/**
 * A request the API refuses, with the status and the message the client gets. Thrown from deep in decoding and
 * caught by {@link GuardedHandler}, so the code that does the work reads as the happy path. It is also the cause a
 * handler gives Jetty's {@code Response.writeError} so that the Error body carries its message; being a
 * {@link QuietException}, it is then logged at debug level, not as a warning: a refusal is the client's answer, and
 * the access line records it.
 */
final class ApiProblem extends RuntimeException implements QuietException {

    private static final long serialVersionUID = 1L;

    private final int status;

    ApiProblem(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    ApiError toError() {
        return new ApiError(status, getMessage());
    }
}
