package dev.plantstore.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the server has opened, closed by one call, the last opened first, each whatever the ones before it threw: the
 * same call whether the start failed half-way or the server is stopping.
 */
final class Closing {

    /** One thing to close, named for the line that reports its failure. */
    record Step(String what, Runnable close) {
    }

    private final Deque<Step> opened = new ArrayDeque<>();

    /** Records {@code resource}, just opened, to be closed with {@code close} before anything opened earlier. */
    <T> T opened(String what, T resource, Consumer<T> close) {
        opened.push(new Step(what, () -> close.accept(resource)));
        return resource;
    }

    /** Closes everything recorded, the last opened first; see {@link #closeAll(List, Consumer)}. */
    boolean closeAll(Consumer<String> report) {
        List<Step> steps = List.copyOf(opened);
        opened.clear();
        return closeAll(steps, report);
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
