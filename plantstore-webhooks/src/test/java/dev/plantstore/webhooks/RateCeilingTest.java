package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A receiver's ceiling: read from its URL, and never more arrivals in any second than it allows. */
class RateCeilingTest {

    private static final long MILLI = Duration.ofMillis(1).toNanos();
    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    @Test
    void theCeilingIsTheFragmentsRateAndAUrlWithoutOneHasNone() {
        assertEquals(50, RateCeiling.of(URI.create("http://127.0.0.1:9/hook#rate=50")).orElseThrow().perSecond());
        assertEquals(Optional.empty(),
                RateCeiling.of(URI.create("http://127.0.0.1:9/hook")).map(RateCeiling::perSecond));
    }

    /**
     * Attempts taken whenever permitted, each answered after a random time, arriving at a random moment between its
     * start and its answer (a network or a receiver's queue that bunches them), its end seen a little later still.
     */
    @Test
    void noSecondAtTheReceiverHoldsMoreArrivalsThanTheCeilingHoweverTheyAreDelayed() {
        var random = new Random(42);
        var ceiling = new RateCeiling(50);
        List<Long> arrivals = new ArrayList<>();
        PriorityQueue<Long> endsSeen = new PriorityQueue<>();
        for (long now = 0; now < 20 * SECOND; now += MILLI) {
            while (!endsSeen.isEmpty() && endsSeen.peek() <= now) {
                endsSeen.poll();
                ceiling.ended(now);
            }
            int permits = ceiling.permits(now);
            int taken = permits == 0 ? 0 : random.nextInt(permits + 1);
            for (int i = 0; i < taken; i++) {
                ceiling.started();
                long answered = now + (1 + random.nextInt(random.nextBoolean() ? 20 : 400)) * MILLI;
                arrivals.add(now + (long) (random.nextDouble() * (answered - now)));
                endsSeen.add(answered + random.nextInt(5) * MILLI);
            }
        }
        List<Long> sorted = arrivals.stream().sorted().toList();
        int first = 0;
        int most = 0;
        for (int last = 0; last < sorted.size(); last++) {
            while (sorted.get(last) - sorted.get(first) >= SECOND) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        assertTrue(most <= 50, most + " arrivals within a second");
        assertTrue(sorted.size() >= 20 * 30, "the ceiling is approached, not undercut: " + sorted.size() + " in 20 s");
    }

    @Test
    void aPlaceIsFreeASecondAfterItsAttemptEndedAndNotWhileItIsInFlight() {
        var ceiling = new RateCeiling(2);
        ceiling.started();
        ceiling.started();
        assertEquals(0, ceiling.permits(5 * SECOND));
        assertEquals(0, ceiling.millisToNextPermit(5 * SECOND), "only an end in flight frees a place");
        ceiling.ended(SECOND);
        assertEquals(0, ceiling.permits(SECOND + SECOND / 2));
        assertEquals(501, ceiling.millisToNextPermit(SECOND + SECOND / 2));
        assertEquals(1, ceiling.permits(2 * SECOND));
    }
}
