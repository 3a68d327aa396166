package dev.plantstore.core;

/**
 * The store cannot be reached or did not answer in time: the database is down, the disk failed, the store is closed
 * or overloaded. The operation may be retried later. After a time-out its outcome is unknown: a create that did land
 * shows as a duplicate when retried. Implementations of {@link PlantStore} outside this library throw it too: the
 * HTTP layer answers it with 503.
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
