package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void trackedAddressesAreBounded() {
        var tiny = new AuthFailureLimiter(1, now::get);
        for (int i = 0; i < AuthFailureLimiter.MAX_ADDRESSES + 10; i++) {
            tiny.recordFailure("address-" + i);
        }
        assertEquals(60, tiny.retryAfterSeconds("address-0"));
        assertEquals(0, tiny.retryAfterSeconds("address-" + (AuthFailureLimiter.MAX_ADDRESSES + 5)));
        advanceSeconds(61);
        tiny.recordFailure("late");
        assertEquals(60, tiny.retryAfterSeconds("late"));
    }
}
