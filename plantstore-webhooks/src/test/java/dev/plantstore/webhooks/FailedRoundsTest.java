package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.testkit.CapturedLog;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A page of attempts that all fail is one failed round, however many turns its answers take to arrive: the rounds
 * decide the back-off and the "still failing" lines, which come after 2, 4, 8 ... rounds.
 */
class FailedRoundsTest {

    private static final String RECEIVER = "http://127.0.0.1:9/failed-rounds";
    private static final List<String> FAILING_THEN_STILL_FAILING = List.of(
            "webhooks to " + RECEIVER + ": failing (HTTP 503); retrying with back-off",
            "webhooks to " + RECEIVER + ": still failing, 3 failed attempts so far (last: HTTP 503)");

    private final CapturedLog log = CapturedLog.of(ReceiverHealth.LOG.getName());
    private final ReceiverHealth health =
            new ReceiverHealth(RECEIVER, new RetryPolicy(Duration.ofSeconds(1), Duration.ofHours(72)));

    @AfterEach
    void releaseTheLog() {
        log.close();
    }

    @Test
    void aPageWhoseAttemptsFailInOneTurnIsOneRound() {
        health.attemptsEnded(0, List.of("HTTP 503", "HTTP 503"), true, 0);
        health.attemptsEnded(0, List.of("HTTP 503"), true, 2_000);

        assertEquals(FAILING_THEN_STILL_FAILING, log.messagesWith(RECEIVER));
    }

    @Test
    void aRetryAfterHoldsEveryAttemptBackAtMostAnHourAndALongerOneIsSaidOnceUntilTheReceiverRecovers() {
        assertEquals(3_000, health.askedToWait(Duration.ofSeconds(3), "HTTP 429", 0));
        health.attemptsEnded(0, List.of("HTTP 429"), true, 0);
        assertEquals(3_000, health.notBeforeMillis());
        assertEquals(3_000, health.nextProbeMillis(), "the back-off's 1 s is shorter than the wait asked for");
        long hour = ReceiverHealth.LONGEST_RETRY_AFTER.toMillis();
        assertEquals(10_000 + hour, health.askedToWait(Duration.ofHours(2), "HTTP 503", 10_000));
        assertEquals(20_000 + hour, health.askedToWait(Duration.ofHours(3), "HTTP 503", 20_000));
        health.attemptsEnded(1, List.of(), true, 30_000);
        health.askedToWait(Duration.ofDays(1), "HTTP 503", 40_000);

        String cut = "webhooks to " + RECEIVER + ": HTTP 503 asked for a wait of %d s (Retry-After); it waits 60 "
                + "minutes, the longest it is held back";
        assertEquals(List.of(
                "webhooks to " + RECEIVER + ": failing (HTTP 429); waiting 3 s before the next attempt, as its "
                        + "Retry-After asks",
                String.format(cut, 7_200),
                "webhooks to " + RECEIVER + ": recovered after 1 failed attempts",
                String.format(cut, 86_400)), log.messagesWith(RECEIVER));
    }

    @Test
    void aPageWhoseAttemptsFailInSeveralTurnsIsOneRound() {
        health.attemptsEnded(0, List.of("HTTP 503"), false, 0);
        health.attemptsEnded(0, List.of("HTTP 503"), true, 10);
        health.attemptsEnded(0, List.of("HTTP 503"), true, 2_000);

        assertEquals(FAILING_THEN_STILL_FAILING, log.messagesWith(RECEIVER));
    }
}
