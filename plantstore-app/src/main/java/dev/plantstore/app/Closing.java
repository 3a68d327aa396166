package dev.plantstore.app;

import java.util.List;
import java.util.function.Consumer;

/** Closing what the server holds, in order, each step whatever the ones before it threw. */
final class Closing {

    private Closing() {
    }

    /** One thing to close, named for the line that reports its failure. */
    record Step(String what, Runnable close) {
    }

    /**
     * Runs every step in order; a step that throws is reported to {@code report} in one line, and the next runs all
     * the same, so that a server that fails to stop still leaves the store closed. True when every step succeeded.
     */
    static boolean closeAll(List<Step> steps, Consumer<String> report) {
        boolean clean = true;
        for (Step step : steps) {
            try {
                step.close().run();
            } catch (RuntimeException | Error e) {
                clean = false;
                report.accept("plantstore: closing " + step.what() + " failed: " + Failures.rootMessage(e));
            }
        }
        return clean;
    }
}
