package dev.plantstore.app;

/** The server could not bind its address: the message is the one line the user sees before exit status 1. */
final class CannotListenException extends Exception {

    private static final long serialVersionUID = 1L;

    CannotListenException(String message) {
        super(message);
    }
}
