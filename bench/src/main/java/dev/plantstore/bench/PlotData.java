package dev.plantstore.bench;

import java.util.List;
import java.util.Locale;

/**
 * Throughput against connections as gnuplot data ({@code bench/throughput.gp} draws it): one block per series, each
 * headed by its title, with a row per connection count of connections, min, median and max requests per second.
 * Blocks are separated by two blank lines, which gnuplot numbers as its {@code index}.
 */
final class PlotData {

    private PlotData() {
    }

    /**
     * The creates blocks first (index 0 to n - 1), then the deletes blocks (n to 2n - 1); n is {@link #seriesCount}.
     */
    static String of(Results results) {
        var data = new StringBuilder();
        for (String operation : List.of("create", "delete")) {
            block(results, "baseline", "get", "baseline: constant GET", data);
            for (String target : Report.targets(results)) {
                String title = target.equals("baseline") ? "baseline: naive " + operation : target + " store";
                block(results, target, operation, title, data);
            }
        }
        return data.toString();
    }

    static int seriesCount(Results results) {
        return 1 + Report.targets(results).size();
    }

    private static void block(Results results, String target, String operation, String title, StringBuilder data) {
        data.append('"').append(title).append("\"\n");
        for (int connections : Report.connectionCounts(results)) {
            List<Sample> samples = Report.select(results, target, operation, connections);
            if (!samples.isEmpty()) {
                Spread spread = Report.spread(samples, WrkResult::requestsPerSecond);
                data.append(String.format(Locale.ROOT, "%d %.0f %.0f %.0f%n",
                        connections, spread.min(), spread.median(), spread.max()));
            }
        }
        data.append("\n\n");
    }
}
