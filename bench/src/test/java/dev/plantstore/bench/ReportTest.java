package dev.plantstore.bench;

import static dev.plantstore.bench.WrkResults.perSecond;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReportTest {

    @Test
    void ratiosAreTakenWithinEachRunThenSummarised() {
        var results = new Results();
        // Run 1: 90 against 100; run 2: 50 against 50; run 3: 80 against 100.
        long[][] runs = {{90, 100}, {50, 50}, {80, 100}};
        for (int run = 1; run <= runs.length; run++) {
            results.samples.add(new Sample("memory", "create", 64, run, perSecond(runs[run - 1][0]), false));
            results.samples.add(new Sample("baseline", "create", 64, run, perSecond(runs[run - 1][1]), false));
        }
        String report = Report.markdown(results);
        assertTrue(report.contains("| 64 | memory create / baseline POST | 0.80 / 0.90 / 1.00 |"), report);
        assertTrue(report.contains(
                "| 64 | memory | create | 50 / 80 / 90 | 1.00 / 1.00 / 1.00 | 5.00 / 5.00 / 5.00 | 0 |"), report);
    }

    @Test
    void aDeleteRunThatRanOutOfIdsIsMarkedAsALowerBound() {
        var results = new Results();
        results.samples.add(new Sample("memory", "delete", 16, 1, perSecond(10), true));
        assertTrue(Report.markdown(results).contains("(1 ran out of ids: lower bound)"));
    }
}
