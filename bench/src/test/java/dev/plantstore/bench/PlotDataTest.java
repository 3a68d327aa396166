package dev.plantstore.bench;

import static dev.plantstore.bench.WrkResults.perSecond;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlotDataTest {

    @Test
    void eachSeriesIsABlockOfMinMedianAndMaxPerConnectionCountCreatesBeforeDeletes() {
        var results = new Results();
        long[] runs = {90, 50, 80};
        for (int run = 1; run <= runs.length; run++) {
            results.samples.add(new Sample("baseline", "get", 16, run, perSecond(100 * run), false));
            results.samples.add(new Sample("memory", "create", 16, run, perSecond(runs[run - 1]), false));
            results.samples.add(new Sample("memory", "delete", 16, run, perSecond(runs[run - 1] + 1), false));
        }
        assertEquals(3, PlotData.seriesCount(results));
        assertEquals("""
                "baseline: constant GET"
                16 100 200 300


                "baseline: naive create"


                "memory store"
                16 50 80 90


                "baseline: constant GET"
                16 100 200 300


                "baseline: naive delete"


                "memory store"
                16 51 81 91


                """, PlotData.of(results));
    }
}
