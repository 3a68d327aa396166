package dev.plantstore.app;

import java.nio.channels.UnresolvedAddressException;

/**
 * Start-up failures arrive wrapped by Javalin, Hikari and the driver; the first line of the innermost cause's message
 * says what happened.
 */
final class Failures {

    private Failures() {
    }

    static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof UnresolvedAddressException) {
            return "unknown host";
        }
        if (root.getMessage() == null) {
            return root.getClass().getSimpleName();
        }
        // PostgreSQL's messages go on with detail lines ("  Position: 28"); a refusal is one line.
        return root.getMessage().lines().findFirst().orElse("").strip();
    }
}
