package dev.plantstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ReceivedEventsTest {

    private final ReceivedEvents events = new ReceivedEvents();

    @Test
    void aRepeatedEventCountsAsAcceptedButDeliveredOnce() {
        events.accept("msg_1", 1_000_000, 5);
        events.accept("msg_1", 2_000_000, 900);
        var stats = events.stats(10);
        assertEquals(2, stats.accepted());
        assertEquals(1, stats.unique());
        assertEquals(5, stats.lagMaxMillis(), "the repeat's lag is not the event's");
    }

    @Test
    void lagPercentilesAreNearestRank() {
        for (int i = 1; i <= 200; i++) {
            events.accept("msg_" + i, i, 201 - i);
        }
        var stats = events.stats(10);
        assertEquals(100, stats.lagP50Millis());
        assertEquals(198, stats.lagP99Millis());
        assertEquals(200, stats.lagMaxMillis());
    }

    @Test
    void theFirstAndLastPartsGiveTheDrainRateAtItsStartAndEnd() {
        // 11 events 1 ms apart, then 11 events 10 ms apart: 1,000 a second, then 100 a second.
        long at = 0;
        for (int i = 0; i < 22; i++) {
            events.accept("msg_" + i, at, 0);
            at += i < 10 ? 1_000 : 10_000;
        }
        var stats = events.stats(11);
        assertEquals(1000.0, stats.firstPartPerSecond(), 0.001);
        assertEquals(100.0, stats.lastPartPerSecond(), 0.001);
        assertEquals(0L, stats.firstArrivalMicros());
        assertEquals(120_000L, stats.lastArrivalMicros());
    }

    @Test
    void aResetForgetsEverything() {
        events.accept("msg_1", 1, 1);
        events.reject();
        events.reset();
        events.accept("msg_1", 2, 2);
        var stats = events.stats(10);
        assertEquals(1, stats.accepted());
        assertEquals(1, stats.unique());
        assertEquals(0, stats.rejected());
    }

    @Test
    void nothingReceivedHasNoFigures() {
        var stats = events.stats(10);
        assertNull(stats.lagP50Millis());
        assertNull(stats.firstPartPerSecond());
        assertEquals("{\"accepted\":0,\"unique\":0,\"rejected\":0,\"lagP50Millis\":null,\"lagP99Millis\":null,"
                + "\"lagMaxMillis\":null,\"firstArrivalMicros\":null,\"lastArrivalMicros\":null,\"part\":0,"
                + "\"firstPartPerSecond\":null,\"lastPartPerSecond\":null}", stats.toJson());
    }
}
