package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Only a trace context that can go back out as W3C headers is ever kept. */
class TraceContextTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aVersion00TraceparentAndAPrintableTracestateAreKept() {
        assertDoesNotThrow(() -> new TraceContext(VALID, Optional.of("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")));
        assertDoesNotThrow(() -> new TraceContext(VALID, Optional.of("a".repeat(512))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b701",
        "00-4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902g7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0\n"})
    void anythingElseAsTraceparentIsRefused(String traceparent) {
        assertThrows(IllegalArgumentException.class, () -> new TraceContext(traceparent, Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=b\r\nX-Injected: 1", "a=\u00e9", "a=\u0000"})
    void aTracestateThatCouldNotBeAHeaderIsRefused(String tracestate) {
        assertThrows(IllegalArgumentException.class, () -> new TraceContext(VALID, Optional.of(tracestate)));
    }

    @Test
    void aTracestateLongerThanW3cAsksToKeepIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TraceContext(VALID, Optional.of("a".repeat(513))));
    }

    @Test
    void aMissingTraceparentIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TraceContext(null, Optional.empty()));
    }
}
