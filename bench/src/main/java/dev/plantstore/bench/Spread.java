package dev.plantstore.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Minimum, median and maximum of a few runs: the figures quoted for every measurement. */
record Spread(double min, double median, double max) {

    static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(sorted.get(0), median, sorted.get(n - 1));
    }

    String format(String pattern) {
        return String.format(java.util.Locale.ROOT, pattern + " / " + pattern + " / " + pattern, min, median, max);
    }
}
