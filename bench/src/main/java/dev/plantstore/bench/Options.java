package dev.plantstore.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** What {@code bench/run} was asked to measure, from its arguments and environment. */
record Options(int seconds, int warmupSeconds, int runs, long heldPlants, List<Integer> connections, Set<String> parts,
               List<String> stores, List<String> jvmOptions, Optional<String> postgresUrl, Path benchDir, Path out) {

    /**
     * The service configurations the load part can measure: each store, and the memory store with the management
     * port on, which records metrics ({@code memory-metrics}), to set beside {@code memory}.
     */
    static final Set<String> STORES = Set.of("memory", "memory-metrics", "sqlite");

    static final String USAGE = """
            usage: bench/run [--seconds N] [--warmup-seconds N] [--runs N] [--held-plants N] [--connections 1,16,64,256]
                             [--parts load,startup,heap] [--stores memory,sqlite] [--jvm-options "FLAGS"] [--out DIR]
            --stores picks the service configurations under load: memory, sqlite, and memory-metrics (the memory
            store with the management port on, so recording metrics).
            PostgreSQL is measured too when PLANTSTORE_BENCH_POSTGRES_URL names a database (jdbc:postgresql:...).
            """;

    /** {@code --help}: print {@link #USAGE} and stop. */
    static final class HelpRequested extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HelpRequested() {
            super(USAGE, null, false, false);
        }
    }

    static Options parse(List<String> args, Map<String, String> env, Path benchDir) {
        int seconds = 10;
        int warmupSeconds = 30;
        int runs = 3;
        long heldPlants = 1_000_000;
        List<Integer> connections = List.of(1, 16, 64, 256);
        Set<String> parts = Set.of("load", "startup", "heap");
        List<String> stores = List.of("memory", "sqlite");
        List<String> jvmOptions = List.of();
        Path out = benchDir.resolve("results");
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (flag.equals("--help")) {
                throw new HelpRequested();
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
            }
            String value = args.get(++i);
            switch (flag) {
                case "--seconds" -> seconds = Integer.parseInt(value);
                case "--warmup-seconds" -> warmupSeconds = Integer.parseInt(value);
                case "--runs" -> runs = Integer.parseInt(value);
                case "--held-plants" -> heldPlants = Long.parseLong(value);
                case "--connections" -> connections = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
                case "--parts" -> parts = Set.of(value.split(","));
                case "--stores" -> stores = List.of(value.split(","));
                case "--jvm-options" -> jvmOptions = value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
            }
        }
        List<String> unknownParts = new ArrayList<>(parts);
        unknownParts.removeAll(Set.of("load", "startup", "heap"));
        if (!unknownParts.isEmpty()) {
            throw new IllegalArgumentException("unknown part " + unknownParts + "\n" + USAGE);
        }
        List<String> unknownStores = new ArrayList<>(stores);
        unknownStores.removeAll(STORES);
        if (!unknownStores.isEmpty()) {
            throw new IllegalArgumentException("unknown store " + unknownStores + "\n" + USAGE);
        }
        String postgres = env.get("PLANTSTORE_BENCH_POSTGRES_URL");
        return new Options(seconds, warmupSeconds, runs, heldPlants, connections, parts, stores, jvmOptions,
                Optional.ofNullable(postgres).filter(url -> !url.isBlank()), benchDir, out);
    }
}
