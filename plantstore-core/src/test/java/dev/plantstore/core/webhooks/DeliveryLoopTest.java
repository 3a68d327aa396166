package dev.plantstore.core.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.RecordingLogger;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DeliveryLoopTest {

    /**
     * The back-off the loop under test waits between its failed turns, a millisecond so that its failures pass
     * quickly; the test itself runs each case once and polls with a deadline.
     */
    private static final RetryPolicy MILLISECOND_BACKOFF = new RetryPolicy(Duration.ofMillis(1), Duration.ofHours(1));

    private static Thread running(DeliveryLoop loop, DeliveryLoop.Turn turn, AtomicBoolean stopped) {
        Thread worker = new Thread(() -> loop.run(turn, stopped::get));
        worker.start();
        return worker;
    }

    @Test
    void failingTurnsAreLoggedOnceAndWaitedOutAndTheirEndOnce() throws Exception {
        var lines = new RecordingLogger();
        var turns = new AtomicInteger();
        var stopped = new AtomicBoolean();
        var loop = new DeliveryLoop("webhooks to r", MILLISECOND_BACKOFF, lines, Throwable::getMessage);
        Thread worker = running(loop, () -> {
            int turn = turns.incrementAndGet();
            if (turn <= 3) {
                throw new IllegalStateException("database down");
            }
            stopped.set(turn == 6);
            return 0;
        }, stopped);
        worker.join(TimeUnit.SECONDS.toMillis(10));

        assertEquals(6, turns.get(), "the loop ends at the first look after its stop");
        assertEquals(List.of("WARNING webhooks to r: the outbox failed: database down",
                "INFO webhooks to r: the outbox answers again"), lines.texts());
    }

    @Test
    void anErrorThrownByATurnDoesNotEndTheLoop() throws Exception {
        var turns = new AtomicInteger();
        var stopped = new AtomicBoolean();
        var loop = new DeliveryLoop("kafka to t", MILLISECOND_BACKOFF, new RecordingLogger(), Throwable::toString);
        Thread worker = running(loop, () -> {
            if (turns.incrementAndGet() == 1) {
                throw new OutOfMemoryError("no room for the page");
            }
            stopped.set(true);
            return 0;
        }, stopped);
        worker.join(TimeUnit.SECONDS.toMillis(10));

        assertEquals(2, turns.get());
    }

    @Test
    void anInterruptEndsTheLoopDuringItsPause() throws Exception {
        var turns = new AtomicInteger();
        var loop = new DeliveryLoop("kafka to t", MILLISECOND_BACKOFF, new RecordingLogger(), Throwable::toString);
        Thread worker = running(loop, () -> {
            turns.incrementAndGet();
            return TimeUnit.HOURS.toMillis(1);
        }, new AtomicBoolean());
        assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(5), () -> turns.get() == 1), "no turn was taken");
        worker.interrupt();
        worker.join(TimeUnit.SECONDS.toMillis(10));

        assertFalse(worker.isAlive(), "the loop still runs after its thread was interrupted");
        assertEquals(1, turns.get());
    }
}
