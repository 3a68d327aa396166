package dev.plantstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class WrkResultTest {

    private static final String OUTPUT = """
            Running 10s test @ http://127.0.0.1:8080
              2 threads and 64 connections
            BENCH {"requests":300000,"durationMicros":10000000,"p50Micros":1500,"p99Micros":9000,"maxMicros":20000,\
            "non2xx":3,"connectErrors":0,"readErrors":1,"writeErrors":0,"timeouts":2,"sent":"150010,150020"}
            """;

    @Test
    void theScriptsLineIsReadWhereverItIsInTheOutput() {
        WrkResult result = WrkResult.parse(OUTPUT).orElseThrow();
        assertEquals(30_000.0, result.requestsPerSecond(), 1e-9);
        assertEquals(1500, result.p50Micros());
        assertEquals(9000, result.p99Micros());
        assertEquals(6, result.failures());
        assertEquals("150010,150020", result.sent());
    }

    @Test
    void outputWithoutTheLineHasNoResult() {
        assertEquals(Optional.empty(), WrkResult.parse("unable to connect to 127.0.0.1:8080 Connection refused\n"));
    }

    @Test
    void aLineWithAFieldMissingIsRefusedRatherThanReadAsZero() {
        assertThrows(IllegalArgumentException.class, () -> WrkResult.parse("BENCH {\"requests\":1}\n"));
    }

    @Test
    void aDeleteRunRanOutOfIdsWhenAnyThreadReachedItsTwinsCount() {
        WrkResult created = result("100,200");
        assertFalse(result("99,199").ranOutOf(created));
        assertTrue(result("100,150").ranOutOf(created));
        assertTrue(result("50,200").ranOutOf(created));
    }

    private static WrkResult result(String sent) {
        return new WrkResult(1, 1, 1, 1, 1, 0, 0, 0, 0, 0, sent);
    }
}
