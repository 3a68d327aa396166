package dev.plantstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ClosedLoopClientsTest {

    @Test
    void eachClientTakesItsOwnNumberedStepsUntilItsStepSaysItIsDone() throws Exception {
        var steps = new AtomicIntegerArray(3);
        ClosedLoopClients.runUntilDone("counting", 3, (client, step) -> {
            assertEquals(steps.getAndIncrement(client), step, "client " + client + "'s steps in order from 0");
            return step + 1 < 5 + client;
        });
        assertEquals(5, steps.get(0));
        assertEquals(6, steps.get(1));
        assertEquals(7, steps.get(2));
    }

    @Test
    void closingStopsClientsThatWouldGoOnForever() throws Exception {
        Set<Integer> working = ConcurrentHashMap.newKeySet();
        var load = ClosedLoopClients.start("forever", 4, (client, step) -> working.add(client) || true);
        assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(5), () -> working.size() == 4),
                "every client took a step");
        load.close();
    }

    @Test
    void theFirstFailureOfAStepIsRethrownWhenTheClientsAreWaitedFor() {
        var refused = new IOException("no answer");
        ClosedLoopClients.Step failingOnOneClient = (client, step) -> {
            if (client == 1) {
                throw refused;
            }
            return false;
        };
        var failure = assertThrows(AssertionError.class,
                () -> ClosedLoopClients.runUntilDone("failing", 2, failingOnOneClient));
        assertSame(refused, failure.getCause());
    }

    @Test
    void anAssertionThatFailedInAStepIsRethrownAsItselfWhenTheLoadCloses() throws Exception {
        var broken = new AssertionError("expected 200 but was 500");
        var thrown = new AtomicBoolean();
        var load = ClosedLoopClients.start("asserting", 1, (client, step) -> {
            thrown.set(true);
            throw broken;
        });
        assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(5), thrown::get), "the step ran");
        assertSame(broken, assertThrows(AssertionError.class, load::close));
    }
}
