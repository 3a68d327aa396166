package dev.plantstore.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one {@code bench/run} measured; written out as results.json and turned into the report. */
final class Results {

    /** Where and how: core count, JDK, operating system, date, options. */
    public final Map<String, String> environment = new LinkedHashMap<>();
    public final List<Sample> samples = new ArrayList<>();
    /** Plants each server held, created before the measurements and never deleted. */
    public final Map<String, Long> heldPlants = new LinkedHashMap<>();
    /** Resident set size in KiB per server: once answering and settled, and after the load. */
    public final Map<String, Long> idleRssKiB = new LinkedHashMap<>();
    public final Map<String, Long> loadedRssKiB = new LinkedHashMap<>();
    /** Milliseconds from launching the JVM to the first 200, per configuration, one value per start. */
    public final Map<String, List<Double>> startupMillis = new LinkedHashMap<>();
    public final Map<String, Long> jarBytes = new LinkedHashMap<>();
    /** Heap bytes per stored plant, per map, at {@link HeapPerPlant#PLANTS} plants. */
    public final Map<String, Double> heapBytesPerPlant = new LinkedHashMap<>();
}
