package dev.plantstore.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.plantstore.testkit.PlantRequests;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench/run}: the service against a bare Javalin baseline on this machine, side by side in one run. See
 * bench/README.md for what each part measures.
 */
public final class Bench {

    static final String TOKEN = "bench-token-0123456789";
    private static final String BASELINE = "baseline";
    private static final int STARTS = 5;
    private static final int HOLD_RUN_SECONDS = 10;

    private final Options options;
    private final Path appJar;
    private final Path baselineJar;
    private final Path logs;
    private final Results results = new Results();
    private final Wrk wrk;
    /** Ids come in blocks; a create run and the delete run after it share one, and no two create runs do. */
    private long nextIdBlock;
    private final long idBlockSize;

    private Bench(Options options) {
        this.options = options;
        Path root = options.benchDir().toAbsolutePath().getParent();
        this.appJar = root.resolve("plantstore-app/target/plantstore.jar");
        this.baselineJar = options.benchDir().toAbsolutePath().resolve("target/baseline.jar");
        this.logs = options.out().resolve("logs");
        this.wrk = new Wrk(options.benchDir().toAbsolutePath().resolve("plants.lua"), TOKEN);
        // Below 2^53, so wrk's Lua numbers hold the ids exactly; a new run starts far from the last one's ids.
        this.idBlockSize = Math.max(Math.max(options.seconds(), options.warmupSeconds()) * 1_000_000L,
                options.heldPlants());
        this.nextIdBlock = Instant.now().getEpochSecond() % 100_000 * 10_000_000_000L;
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(List.of(args), System.getenv(),
                    Path.of(System.getProperty("plantstore.bench.dir", "bench")));
        } catch (Options.HelpRequested help) {
            System.out.print(Options.USAGE);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        new Bench(options).run();
    }

    private void run() throws Exception {
        Files.createDirectories(logs);
        recordEnvironment();
        results.jarBytes.put("plantstore.jar", Files.size(appJar));
        results.jarBytes.put("baseline.jar", Files.size(baselineJar));
        if (options.parts().contains("heap")) {
            measureHeap();
        }
        if (options.parts().contains("startup")) {
            measureStartup();
        }
        if (options.parts().contains("load")) {
            measureLoad();
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(options.out().resolve("results.json").toFile(), results);
        Files.writeString(options.out().resolve("report.md"), Report.markdown(results));
        if (!results.samples.isEmpty()) {
            plot();
        }
        System.out.println("wrote " + options.out().resolve("report.md"));
    }

    /** Throughput against connections, drawn by gnuplot from the data this run writes beside the report. */
    private void plot() throws IOException, InterruptedException {
        Path data = options.out().resolve("throughput.dat").toAbsolutePath();
        Path png = options.out().resolve("throughput.png").toAbsolutePath();
        Files.writeString(data, PlotData.of(results));
        var plotted = Processes.run(List.of("gnuplot", "-e",
                "data='" + data + "'; png='" + png + "'; series=" + PlotData.seriesCount(results)
                        + "; cores=" + results.environment.get("cores"),
                options.benchDir().resolve("throughput.gp").toString()));
        if (plotted.exit() != 0) {
            System.out.println("no plot: gnuplot failed: " + plotted.output());
        }
    }

    private void recordEnvironment() throws IOException, InterruptedException {
        var env = results.environment;
        env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        env.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"));
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        env.put("date", Instant.now().toString());
        env.put("wrk", command("wrk", "-v").lines().findFirst().orElse("?").strip());
        env.put("server JVM options", String.join(" ", options.jvmOptions()));
        env.put("runs", options.runs() + " per figure; " + options.seconds() + " s per GET and create run, "
                + deleteSeconds() + " s per delete run, after " + options.warmupSeconds() + " s of warm-up per server");
    }

    private record Target(String name, Path jar, List<String> args, String readyPath) {
    }

    private List<Target> loadTargets(Path dataDir) {
        List<Target> targets = new ArrayList<>();
        targets.add(baseline());
        for (String store : options.stores()) {
            targets.add(switch (store) {
                case "memory" -> plantstore("memory", "memory");
                case "memory-metrics" -> plantstore("memory-metrics", "memory", "--management-port", "0");
                default -> plantstore("sqlite", "sqlite:" + dataDir.resolve("bench.db"));
            });
        }
        options.postgresUrl().ifPresent(url -> targets.add(plantstore("postgresql", url)));
        return targets;
    }

    private Target baseline() {
        return new Target(BASELINE, baselineJar, List.of("{port}"), "/constant");
    }

    private Target plantstore(String name, String store, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "{port}", "--store", store));
        args.addAll(List.of(extraArgs));
        return new Target(name, appJar, List.copyOf(args), "/health");
    }

    private JvmServer start(Target target, List<String> extraJvmOptions, String logName) throws Exception {
        List<String> jvmOptions = new ArrayList<>(options.jvmOptions());
        jvmOptions.addAll(extraJvmOptions);
        return JvmServer.start(target.name(), jvmOptions, target.jar(), target.args(),
                Map.of("PLANTSTORE_TOKENS", TOKEN), target.readyPath(), logs.resolve(logName + ".log"));
    }

    private void measureLoad() throws Exception {
        Path dataDir = Files.createTempDirectory("plantstore-bench");
        List<Target> targets = loadTargets(dataDir);
        List<JvmServer> servers = new ArrayList<>();
        try {
            for (Target target : targets) {
                servers.add(start(target, List.of(), "load-" + target.name()));
            }
            Thread.sleep(2_000);
            for (JvmServer server : servers) {
                results.idleRssKiB.put(server.name(), server.rssKiB());
            }
            int warmupHalf = Math.max(1, options.warmupSeconds() / 2);
            for (JvmServer server : servers) {
                System.out.println("warming up " + server.name());
                if (server.name().equals(BASELINE)) {
                    wrk.get(server.url(), "/constant", 64, warmupHalf);
                }
                long block = takeIdBlock();
                WrkResult created = wrk.create(server.url(), block, 64, warmupHalf);
                wrk.delete(server.url(), block, created, 64, Math.max(1, warmupHalf * 6 / 10));
            }
            for (JvmServer server : servers) {
                holdPlants(server);
            }
            for (int connections : options.connections()) {
                for (int run = 1; run <= options.runs(); run++) {
                    measureRound(servers, connections, run);
                }
            }
            for (JvmServer server : servers) {
                results.loadedRssKiB.put(server.name(), server.rssKiB());
            }
        } finally {
            for (JvmServer server : servers) {
                server.close();
            }
        }
    }

    /**
     * Fills the server with the plants it holds through the measurements (a million by default), never deleted: pauses
     * of the garbage collector grow with what the heap holds, and a store is measured as it is used, not empty.
     */
    private void holdPlants(JvmServer server) throws Exception {
        long held = 0;
        // wrk runs for its whole duration even once every thread has stopped, so fill in short runs, each with ids of
        // its own.
        while (held < options.heldPlants()) {
            WrkResult run = wrk.createExactly(server.url(), takeIdBlock(), options.heldPlants() - held, 64,
                    HOLD_RUN_SECONDS);
            if (run.requests() == 0) {
                throw new IllegalStateException(server.name() + " stopped creating plants at " + held);
            }
            held += Arrays.stream(run.sent().split(",")).mapToLong(Long::parseLong).sum();
        }
        results.heldPlants.put(server.name(), held);
        System.out.printf(Locale.ROOT, "%s holds %,d plants%n", server.name(), held);
    }

    /** One run of every measurement at this connection count, servers taking turns (A B A B, never A A B B). */
    private void measureRound(List<JvmServer> servers, int connections, int run) throws Exception {
        JvmServer baseline = servers.get(0);
        record(baseline, "get", connections, run, wrk.get(baseline.url(), "/constant", connections, options.seconds()),
                false);
        List<Long> blocks = new ArrayList<>();
        List<WrkResult> creates = new ArrayList<>();
        for (JvmServer server : servers) {
            long block = takeIdBlock();
            WrkResult created = wrk.create(server.url(), block, connections, options.seconds());
            record(server, "create", connections, run, created, false);
            blocks.add(block);
            creates.add(created);
        }
        for (int i = 0; i < servers.size(); i++) {
            JvmServer server = servers.get(i);
            WrkResult deleted = wrk.delete(server.url(), blocks.get(i), creates.get(i), connections, deleteSeconds());
            record(server, "delete", connections, run, deleted, deleted.ranOutOf(creates.get(i)));
        }
    }

    private long takeIdBlock() {
        long block = nextIdBlock;
        nextIdBlock += idBlockSize;
        return block;
    }

    /**
     * A delete run deletes what the create run before it made, so it must end before those ids run out; wrk divides
     * by the whole duration even when its threads stop early. Six tenths of the create run's time leave room for
     * deletes two thirds faster than creates; a run that runs out anyway is marked.
     */
    private int deleteSeconds() {
        return Math.max(1, options.seconds() * 6 / 10);
    }

    private void record(JvmServer server, String operation, int connections, int run, WrkResult result,
                        boolean ranOutOfIds) {
        results.samples.add(new Sample(server.name(), operation, connections, run, result, ranOutOfIds));
        System.out.printf(Locale.ROOT,
                "%4d connections, run %d, %-10s %-6s %9.0f req/s  p50 %6.2f ms  p99 %7.2f ms%s%s%n",
                connections, run, server.name(), operation, result.requestsPerSecond(), result.p50Micros() / 1000.0,
                result.p99Micros() / 1000.0, result.failures() == 0 ? "" : "  " + result.failures() + " not 2xx",
                ranOutOfIds ? "  (ran out of ids: a lower bound)" : "");
    }

    /**
     * Time to the first 200, configurations taking turns: the baseline, the service on each store, and the service
     * with the class-data archive (JDK 17 to 24) or ahead-of-time cache (JDK 25 on) a training run made.
     */
    private void measureStartup() throws Exception {
        Path dataDir = Files.createTempDirectory("plantstore-startup");
        Target sqlite = plantstore("sqlite", "sqlite:" + dataDir.resolve("startup.db"));
        List<String> fastLaunch = trainFastLaunch(sqlite);
        String fastLabel = "plantstore, SQLite store, fast launch";
        results.environment.put("fast launch", String.join(" ", fastLaunch));
        Map<String, Target> configurations = new LinkedHashMap<>();
        configurations.put("baseline (bare Javalin)", baseline());
        configurations.put("plantstore, memory store", plantstore("memory", "memory"));
        configurations.put("plantstore, SQLite store (default)", sqlite);
        configurations.put(fastLabel, sqlite);
        for (int i = 0; i < STARTS; i++) {
            for (var entry : configurations.entrySet()) {
                boolean fast = entry.getKey().equals(fastLabel);
                try (JvmServer server = start(entry.getValue(), fast ? fastLaunch : List.of(), "startup")) {
                    results.startupMillis.computeIfAbsent(entry.getKey(), k -> new ArrayList<>())
                            .add(server.startupMillis());
                    System.out.printf(Locale.ROOT, "start-up %-50s %6.0f ms%n", entry.getKey(), server.startupMillis());
                }
            }
        }
    }

    /** Runs the service once with the archive being recorded, sends it each kind of request, stops it. */
    private List<String> trainFastLaunch(Target target) throws Exception {
        boolean aotCache = Runtime.version().feature() >= 25;
        Path archive = options.out().resolve(aotCache ? "plantstore.aot" : "plantstore.jsa").toAbsolutePath();
        Files.deleteIfExists(archive);
        String record = aotCache ? "-XX:AOTCacheOutput=" + archive : "-XX:ArchiveClassesAtExit=" + archive;
        try (JvmServer server = start(target, List.of(record), "startup-training")) {
            exercise(server.url());
        }
        if (!Files.exists(archive)) {
            throw new IOException("the training run left no archive at " + archive + "; see " + logs);
        }
        return List.of(aotCache ? "-XX:AOTCache=" + archive : "-XX:SharedArchiveFile=" + archive);
    }

    private static void exercise(String url) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        URI plants = URI.create(url + "/plants");
        for (int id = 1; id <= 50; id++) {
            URI plant = URI.create(url + "/plants/" + id);
            send(client, PlantRequests.create(plants, TOKEN, PlantRequests.plantJson(id, "Plant-0001", "fern")));
            send(client, PlantRequests.delete(plant, TOKEN));
            send(client, PlantRequests.delete(plant, TOKEN));
            send(client, HttpRequest.newBuilder(plants).header("Authorization", "Bearer " + TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString("{")));
            send(client, HttpRequest.newBuilder(URI.create(url + "/health"))
                    .header("Authorization", "Bearer " + TOKEN));
        }
    }

    private static void send(HttpClient client, HttpRequest.Builder request) throws IOException, InterruptedException {
        client.send(request.build(), HttpResponse.BodyHandlers.discarding());
    }

    private void measureHeap() throws IOException, InterruptedException {
        Path benchJar = options.benchDir().toAbsolutePath().resolve("target/bench.jar");
        for (String kind : List.of("plantstore", "naive")) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String output = command(java, "-Xmx2g",
                    // JOL sizes objects through the JVM's own instrumentation, which it attaches to itself.
                    "-Djdk.attach.allowAttachSelf=true",
                    "-cp", benchJar.toString(), HeapPerPlant.class.getName(), kind);
            String line = output.lines().filter(l -> l.startsWith("HEAP ")).findFirst()
                    .orElseThrow(() -> new IOException("no HEAP line from " + kind + ": " + output));
            results.heapBytesPerPlant.put(kind, Double.parseDouble(line.substring(5)));
            System.out.println("heap per plant, " + kind + ": " + line.substring(5) + " B");
        }
    }

    /** What the command printed, whatever its exit status: {@code wrk -v} exits 1. */
    private static String command(String... command) throws IOException, InterruptedException {
        return Processes.run(List.of(command)).output();
    }
}
