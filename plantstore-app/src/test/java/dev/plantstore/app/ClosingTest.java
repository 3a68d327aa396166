package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stop, or a start that failed part-way, closes everything opened, in order, whatever an earlier step throws. */
class ClosingTest {

    private final List<String> closed = new ArrayList<>();
    private final List<String> reported = new ArrayList<>();

    @Test
    void aServerThatFailsToCloseStillLeavesTheStoreClosed() {
        boolean clean = Closing.closeAll(List.of(
                new Closing.Step("the server", () -> {
                    throw new IllegalStateException("connector stuck");
                }),
                new Closing.Step("the management server", () -> closed.add("management")),
                new Closing.Step("the store", () -> closed.add("store"))), reported::add);

        assertFalse(clean);
        assertEquals(List.of("management", "store"), closed);
        assertEquals(List.of("plantstore: closing the server failed: connector stuck"), reported);
    }

    @Test
    void anErrorDoesNotStopTheStepsAfterIt() {
        boolean clean = Closing.closeAll(List.of(
                new Closing.Step("the server", () -> {
                    throw new AssertionError("boom");
                }),
                new Closing.Step("the store", () -> closed.add("store"))), reported::add);

        assertFalse(clean);
        assertEquals(List.of("store"), closed);
    }

    @Test
    void aCleanStopReportsNothing() {
        assertTrue(Closing.closeAll(List.of(new Closing.Step("the store", () -> closed.add("store"))), reported::add));
        assertEquals(List.of(), reported);
    }

    @Test
    void whatWasOpenedClosesTheLastOpenedFirstAndOnlyOnce() {
        var opened = new Closing();
        opened.opened("a token verifier", "verifier", closed::add);
        opened.opened("the store", "store", closed::add);
        opened.opened("the server", "server", closed::add);

        assertTrue(opened.closeAll(reported::add));
        assertTrue(opened.closeAll(reported::add));
        assertEquals(List.of("server", "store", "verifier"), closed);
    }

    @Test
    void whatOpensAfterAStopRefusedMoreClosesAtOnceAndEndsTheStart() {
        var opened = new Closing();
        opened.opened("tracing", "tracing", closed::add);
        opened.refuseMore();

        assertThrows(Closing.StoppedDuringStartup.class, () -> opened.opened("the store", "store", closed::add));
        assertEquals(List.of("store"), closed);
        assertTrue(opened.closeAll(reported::add));
        assertEquals(List.of("store", "tracing"), closed);
    }
}
