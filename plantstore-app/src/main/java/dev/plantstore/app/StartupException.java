package dev.plantstore.app;

/**
 * The server could not start: its store would not open or its address would not bind. The message is the one line
 * the user sees before exit status 1, and never holds a credential.
 */
final class StartupException extends Exception {

    private static final long serialVersionUID = 1L;

    StartupException(String message) {
        super(message);
    }
}
