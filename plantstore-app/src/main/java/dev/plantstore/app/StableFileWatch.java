package dev.plantstore.app;

import dev.plantstore.core.threads.DaemonThreads;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Reads configuration files again once a change to them holds still, on a thread of its own. Every interval it takes
 * a look (a value of type {@code L} that differs when the files do); a look unlike the last one read is read only when
 * the next look finds the same, so that a file still being written, or a pair written one after the other, is waited
 * for. The read is checked as at start-up: a refusal is logged once per change and what is in use stays; a read the
 * files changed under is dropped, and the next looks decide. Nothing a look meets ends the schedule, an {@code Error}
 * included: the executor would cancel the task silently and the files would never be read again; an unexpected
 * failure is logged when it starts and when it ends, not at each look.
 *
 * @param <L> a look at the files
 * @param <T> what a read of them gives
 */
final class StableFileWatch<L, T> implements AutoCloseable {

    private static final Duration LOOK_UNDER_WAY_WAIT = Duration.ofSeconds(2);

    /** One look at the files. */
    @FunctionalInterface
    interface Look<L> {
        L look() throws Exception;
    }

    /** A read of the files, checked as at start-up. */
    @FunctionalInterface
    interface Read<T> {
        T read() throws UsageException;
    }

    /** Puts an accepted read into use; a failure leaves the files to be read again. */
    @FunctionalInterface
    interface Use<T> {
        void use(T read) throws Exception;
    }

    /**
     * How the log names what is watched: {@code subject} ("tokens file F"), its verb ("is", "are"), what stays in use
     * on a refusal or a failure, and how a change taken into use is told.
     */
    record Wording<T>(String subject, String verb, String keptInUse, String stillWatched,
                      Function<T, String> takenIntoUse) {
    }

    private final System.Logger log;
    private final Wording<T> wording;
    private final Look<L> look;
    private final Read<T> read;
    private final Use<T> use;
    private final Runnable afterEachLook;
    private final ScheduledExecutorService watcher;
    /** The files as last read (or refused); a look that finds them so changes nothing. */
    private L lastRead;
    /** A change seen once, waiting for a second look that finds it the same. */
    private Optional<L> changed = Optional.empty();
    private boolean failing;

    /**
     * Looks every {@code every} on a daemon thread named {@code threadName}, from {@code firstLook} (the look the
     * files were first read at), handing each stable, accepted read to {@code use}; {@code afterEachLook} runs after
     * every look, under the same guard.
     */
    StableFileWatch(String threadName, System.Logger log, Wording<T> wording, L firstLook, Look<L> look, Read<T> read,
                    Use<T> use, Runnable afterEachLook, Duration every) {
        this.log = log;
        this.wording = wording;
        this.look = look;
        this.read = read;
        this.use = use;
        this.afterEachLook = afterEachLook;
        this.lastRead = firstLook;
        this.watcher = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named(threadName));
        watcher.scheduleWithFixedDelay(this::check, every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Ends the watch once a look under way has ended, so that no line of it follows a stop; a look that takes longer
     * than {@link #LOOK_UNDER_WAY_WAIT} (a file system that hangs) is interrupted and left to end on its own.
     */
    @Override
    public void close() {
        watcher.shutdown();
        try {
            if (!watcher.awaitTermination(LOOK_UNDER_WAY_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                watcher.shutdownNow();
            }
        } catch (InterruptedException e) {
            watcher.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void check() {
        try {
            readIfChangedAndStable();
            afterEachLook.run();
            // A look that only saw the files change is no success yet: the read it awaits may fail as before.
            if (failing && changed.isEmpty()) {
                failing = false;
                log.log(System.Logger.Level.INFO, "checking " + wording.subject() + " works again");
            }
        } catch (Throwable e) {
            if (!failing) {
                failing = true;
                log.log(System.Logger.Level.ERROR, "checking " + wording.subject() + " failed (" + e + "); "
                        + wording.keptInUse() + ", and " + wording.stillWatched());
            }
        }
    }

    /** Only the watcher's thread calls this. A failure other than a refusal leaves the files to be read again. */
    private void readIfChangedAndStable() throws Exception {
        L now = look.look();
        if (now.equals(lastRead)) {
            changed = Optional.empty();
            return;
        }
        if (!Optional.of(now).equals(changed)) {
            changed = Optional.of(now);
            return;
        }
        changed = Optional.empty();
        T accepted;
        try {
            accepted = read.read();
        } catch (UsageException e) {
            lastRead = now;
            log.log(System.Logger.Level.WARNING, wording.subject() + " changed but " + wording.verb() + " refused ("
                    + e.getMessage() + "); " + wording.keptInUse());
            return;
        }
        if (!look.look().equals(now)) {
            // Changed again while read: what was read may be neither version; the next looks decide.
            return;
        }
        use.use(accepted);
        lastRead = now;
        log.log(System.Logger.Level.INFO, wording.subject() + " changed: " + wording.takenIntoUse().apply(accepted));
    }
}
