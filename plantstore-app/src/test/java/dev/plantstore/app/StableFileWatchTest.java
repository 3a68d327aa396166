package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A closed watch is over: what it logs, it logs before {@code close()} returns, so no line follows a stop. */
class StableFileWatchTest {

    /** The lines logged, and those logged once {@code close()} had returned. */
    private static final class Lines implements System.Logger {
        final List<String> all = new CopyOnWriteArrayList<>();
        final List<String> afterClose = new CopyOnWriteArrayList<>();
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public String getName() {
            return "StableFileWatchTest";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            record(message);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            record(format);
        }

        private void record(String line) {
            all.add(line);
            if (closed.get()) {
                afterClose.add(line);
            }
        }
    }

    @Test
    void aLookUnderWayWhenTheWatchClosesEndsBeforeCloseReturns() throws Exception {
        Lines lines = new Lines();
        CountDownLatch looking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        StableFileWatch<String, String> watch = new StableFileWatch<>("stable-file-watch-test", lines,
                new StableFileWatch.Wording<>("file F", "is", "the old one stays", "it is still watched", read -> read),
                "first", () -> {
                    looking.countDown();
                    // A slow file system: the look takes its time whatever happens to the thread meanwhile.
                    boolean interrupted = false;
                    while (release.getCount() > 0) {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            interrupted = true;
                        }
                    }
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IOException("the disk went away");
                }, () -> "read", read -> { }, () -> { }, Duration.ofMillis(10));
        assertTrue(looking.await(5, TimeUnit.SECONDS), "the watch looked");

        Thread closer = new Thread(() -> {
            watch.close();
            lines.closed.set(true);
        }, "closer");
        closer.start();
        var waitingOrDone = EnumSet.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.TERMINATED);
        assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(5),
                () -> waitingOrDone.contains(closer.getState())), "close() neither returned nor waits");
        release.countDown();
        closer.join(Duration.ofSeconds(10).toMillis());

        // The failure's line, whenever it comes: before close() returned or after.
        Poll.until(Duration.ofSeconds(5), Duration.ofMillis(5), () -> !lines.all.isEmpty());
        assertEquals(List.of("checking file F failed (java.io.IOException: the disk went away); the old one stays, "
                + "and it is still watched"), lines.all, "the look's failure is told");
        assertEquals(List.of(), lines.afterClose, "lines logged after close() returned");
    }
}
