package dev.plantstore.app;

import dev.plantstore.http.PlantStoreServer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The stop on SIGTERM or the first SIGINT (a second one ends the process at once: {@link Interrupts}), whenever it
 * comes: installed before the start opens anything, so that a stop during the start closes what was opened, in order,
 * and says so in one line.
 *
 * <p>Once serving: readiness turns DOWN while the server keeps serving for the drain period, so that a load balancer
 * checking readiness stops sending requests; then the server stops accepting and lets requests in flight finish, the
 * store commits what it was given and closes, and the process exits 0. The JVM would report 143 for SIGTERM however
 * cleanly the hooks ran; a requested, completed stop is a success, so the hook ends the process itself.
 */
final class ShutdownHook {

    /**
     * How long a stop waits for the start's step under way (a database that does not answer holds it up to its
     * connection time-out) before closing what is open without it.
     */
    static final Duration START_STEP_WAIT = Duration.ofSeconds(5);

    private static final int FAILED_TO_CLOSE = 1;

    private final Closing closing;
    private final Interrupts interrupts;
    private final Console out;
    private final CountDownLatch startEnded = new CountDownLatch(1);
    private volatile PlantStoreServer serving;
    private volatile Duration drain = Duration.ZERO;
    /** The start failed and the process is exiting with its own status and line: nothing is left to stop. */
    private volatile boolean startFailed;

    private ShutdownHook(Closing closing, Interrupts interrupts, Console out) {
        this.closing = closing;
        this.interrupts = interrupts;
        this.out = out;
    }

    /**
     * Adds the hook; empty when the JVM is already shutting down (a stop before the start opened anything, which then
     * has nothing to close).
     */
    static Optional<ShutdownHook> install(Closing closing, Interrupts interrupts, Console out) {
        var hook = new ShutdownHook(closing, interrupts, out);
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(hook::run, "plantstore-shutdown"));
            return Optional.of(hook);
        } catch (IllegalStateException shuttingDown) {
            return Optional.empty();
        }
    }

    /** The server is up: a stop from now on drains it for {@code drainFor} before closing everything. */
    void serving(PlantStoreServer server, Duration drainFor) {
        this.drain = drainFor;
        this.serving = server;
    }

    /** The start failed, and closed what it had opened: the exit that follows is the start's, with its status. */
    void startFailed() {
        startFailed = true;
    }

    /** The start is over, whether it succeeded or not. */
    void startEnded() {
        startEnded.countDown();
    }

    private void run() {
        if (startFailed) {
            return;
        }
        interrupts.stopping();
        PlantStoreServer server = serving;
        if (server == null) {
            stopDuringStartup();
            return;
        }
        server.drain();
        if (!drain.isZero()) {
            out.println("plantstore draining: not ready, serving for " + drain.toSeconds() + " s more");
            sleep(drain);
        }
        boolean clean = closing.closeAll(out::println);
        out.println(clean ? "plantstore stopped" : "plantstore stopped, but something failed to close (above)");
        out.flush();
        Runtime.getRuntime().halt(clean ? 0 : FAILED_TO_CLOSE);
    }

    /**
     * Lets the start's step under way end (what it opened is then closed as it opens, and the start opens nothing
     * more), then closes what the start had opened before it, the last first.
     */
    private void stopDuringStartup() {
        closing.refuseMore();
        try {
            startEnded.await(START_STEP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean clean = closing.closeAll(out::println);
        out.println(clean ? "plantstore stopped during start-up"
                : "plantstore stopped during start-up, but something failed to close (above)");
        out.flush();
        Runtime.getRuntime().halt(clean ? 0 : FAILED_TO_CLOSE);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
