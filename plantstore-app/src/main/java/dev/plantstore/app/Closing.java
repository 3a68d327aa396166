package dev.plantstore.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the server has opened, closed by one call, the last opened first, each whatever the ones before it threw: the
 * same call whether the start failed half-way or the server is stopping. A stop may come from the shutdown hook's
 * thread while the start is still opening things on its own: once it refuses more, whatever opens next is closed at
 * once and the start ends with {@link StoppedDuringStartup}.
 */
final class Closing {

    /** One thing to close, named for the line that reports its failure. */
    record Step(String what, Runnable close) {
    }

    /** The start found that a stop had already closed what it opened; it ends quietly, the stop reports. */
    static final class StoppedDuringStartup extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoppedDuringStartup() {
            super("stopped during start-up", null, false, false);
        }
    }

    private final Deque<Step> opened = new ArrayDeque<>();
    private boolean refusing;

    /**
     * Records {@code resource}, just opened, to be closed with {@code close} before anything opened earlier; once a
     * stop refused more, closes it now and throws {@link StoppedDuringStartup}.
     */
    <T> T opened(String what, T resource, Consumer<T> close) {
        synchronized (this) {
            if (!refusing) {
                opened.push(new Step(what, () -> close.accept(resource)));
                return resource;
            }
        }
        closeAll(List.of(new Step(what, () -> close.accept(resource))), line -> { });
        throw new StoppedDuringStartup();
    }

    /** From now on, whatever is opened is closed at once, and the start ends with {@link StoppedDuringStartup}. */
    synchronized void refuseMore() {
        refusing = true;
    }

    /** Closes everything recorded, the last opened first; see {@link #closeAll(List, Consumer)}. */
    boolean closeAll(Consumer<String> report) {
        List<Step> steps;
        synchronized (this) {
            steps = List.copyOf(opened);
            opened.clear();
        }
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
