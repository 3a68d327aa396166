package dev.plantstore.app;

import java.nio.channels.UnresolvedAddressException;

/** Start-up failures arrive wrapped by Javalin, Hikari and the driver; the innermost cause says what happened. */
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
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
