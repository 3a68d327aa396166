package dev.plantstore.app;

/** A bad flag, environment value or tokens file: the message is the one line the user sees before exit status 2. */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
