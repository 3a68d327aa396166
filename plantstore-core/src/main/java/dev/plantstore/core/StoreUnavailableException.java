package dev.plantstore.core;

/**
 * The store cannot be reached or did not answer in time: the database is down, the disk failed, the store is closed
 * or overloaded. The outcome of the operation is unknown, since it may have been committed before the failure, and
 * retrying it is safe: a retried create whose plant did land answers {@link CreateResult.AlreadyStored}.
 * Implementations of {@link PlantStore} outside this library throw it too: the HTTP layer answers it with 503.
 */
public final class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreUnavailableException(String message) {
        super(message);
    }
}
