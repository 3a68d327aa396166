package dev.plantstore.core.webhooks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The loop a destination's worker thread runs until it is stopped, the same for every destination: a turn, then a
 * pause as long as the turn asks, which {@link LockSupport#unpark} cuts short. A turn that throws (the outbox failing,
 * the database down) is logged once and waited out on the back-off, and its end logged once, so the thread never dies
 * of it.
 */
public final class DeliveryLoop {

    /** One turn of a worker: does what is due, and returns how long to wait before the next, in milliseconds. */
    @FunctionalInterface
    public interface Turn {
        long take() throws InterruptedException;
    }

    private final String destination;
    private final RetryPolicy retries;
    private final System.Logger log;
    private final Function<Throwable, String> describe;

    /**
     * A loop for {@code destination} (as its lines name it, such as {@code webhooks to KEY}), waiting out failed turns
     * on {@code retries}' back-off and logging them to {@code log} in the words of {@code describe}.
     */
    public DeliveryLoop(String destination, RetryPolicy retries, System.Logger log,
                        Function<Throwable, String> describe) {
        this.destination = destination;
        this.retries = retries;
        this.log = log;
        this.describe = describe;
    }

    /** Takes turns until {@code stopped} is true at a wake-up, or the thread is interrupted. */
    public void run(Turn turn, BooleanSupplier stopped) {
        int turnFailures = 0;
        while (!stopped.getAsBoolean()) {
            long waitMillis;
            try {
                waitMillis = turn.take();
                if (turnFailures > 0) {
                    log.log(System.Logger.Level.INFO, destination + ": the outbox answers again");
                }
                turnFailures = 0;
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | Error e) {
                turnFailures++;
                if (turnFailures == 1) {
                    log.log(System.Logger.Level.WARNING, destination + ": the outbox failed: " + describe.apply(e));
                }
                waitMillis = retries.backoffMillis(turnFailures);
            }
            if (waitMillis > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(waitMillis));
            }
            if (Thread.interrupted()) {
                return;
            }
        }
    }
}
