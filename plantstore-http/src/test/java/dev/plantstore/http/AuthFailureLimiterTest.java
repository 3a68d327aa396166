package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AuthFailureLimiterTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AuthFailureLimiter limiter = new AuthFailureLimiter(3, now::get);

    private void advanceSeconds(long seconds) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void anAddressMayFailUpToTheLimitThenWaitsForTheRestOfItsMinute() {
        for (int i = 0; i < 3; i++) {
            assertEquals(0, limiter.retryAfterSeconds("10.0.0.1"));
            limiter.recordFailure("10.0.0.1");
        }
        assertEquals(60, limiter.retryAfterSeconds("10.0.0.1"));
        advanceSeconds(45);
        assertEquals(15, limiter.retryAfterSeconds("10.0.0.1"));
        advanceSeconds(15);
        assertEquals(0, limiter.retryAfterSeconds("10.0.0.1"));
    }

    @Test
    void addressesAreCountedApart() {
        for (int i = 0; i < 3; i++) {
            limiter.recordFailure("10.0.0.1");
        }
        assertEquals(0, limiter.retryAfterSeconds("10.0.0.2"));
    }

    @Test
    void failuresInAnEndedMinuteDoNotCount() {
        limiter.recordFailure("10.0.0.1");
        limiter.recordFailure("10.0.0.1");
        advanceSeconds(61);
        limiter.recordFailure("10.0.0.1");
        limiter.recordFailure("10.0.0.1");
        assertEquals(0, limiter.retryAfterSeconds("10.0.0.1"));
    }

    @Test
    void atCapacityANewAddressIsStillLimitedAndTheOldestIsForgotten() {
        var oneGuess = new AuthFailureLimiter(1, now::get);
        for (int i = 0; i < AuthFailureLimiter.MAX_ADDRESSES; i++) {
            oneGuess.recordFailure("address-" + i);
            advanceNanos(1);
        }
        oneGuess.recordFailure("newcomer");
        assertEquals(60, oneGuess.retryAfterSeconds("newcomer"));
        assertEquals(0, oneGuess.retryAfterSeconds("address-0"), "the oldest made room");
        assertEquals(60, oneGuess.retryAfterSeconds("address-1"));
        assertEquals(60, oneGuess.retryAfterSeconds("address-" + (AuthFailureLimiter.MAX_ADDRESSES - 1)));
    }

    @Test
    void atCapacityARefusedTokenCostsNoScanOfTheTrackedAddresses() {
        var oneGuess = new AuthFailureLimiter(1, now::get);
        for (int i = 0; i < AuthFailureLimiter.MAX_ADDRESSES; i++) {
            oneGuess.recordFailure("address-" + i);
        }
        // A scan per refused token would be 10^10 steps here; constant work is well under a second even on a busy CI.
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int i = 0; i < AuthFailureLimiter.MAX_ADDRESSES; i++) {
                oneGuess.recordFailure("more-" + i);
            }
        });
        assertEquals(60, oneGuess.retryAfterSeconds("more-" + (AuthFailureLimiter.MAX_ADDRESSES - 1)));
    }

    @Test
    void anAddressFailingEveryMinuteForLongKeepsMemoryBounded() {
        long before = heapInUse();
        // A window remembered per minute without a bound would hold 3 million here, about 150 MB.
        for (int minute = 0; minute < 30 * AuthFailureLimiter.MAX_ADDRESSES; minute++) {
            limiter.recordFailure("10.0.0.1");
            advanceSeconds(61);
        }
        long grown = heapInUse() - before;
        assertTrue(grown < 40L << 20, "the limiter's heap grew by " + (grown >> 20) + " MB");
        assertEquals(0, limiter.retryAfterSeconds("10.0.0.1"));
    }

    /** The heap's live bytes after a full collection; the test JVM runs one test at a time. */
    private static long heapInUse() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private void advanceNanos(long nanos) {
        now.addAndGet(nanos);
    }
}
