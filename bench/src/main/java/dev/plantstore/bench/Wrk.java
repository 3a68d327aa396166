package dev.plantstore.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs wrk with {@code plants.lua} against one server. */
final class Wrk {

    private final Path script;
    private final String token;

    Wrk(Path script, String token) {
        this.script = script;
        this.token = token;
    }

    /** A constant GET of {@code path} for {@code seconds} over {@code connections} connections. */
    WrkResult get(String url, String path, int connections, int seconds) throws IOException, InterruptedException {
        return run(url, List.of("get", "0", Integer.toString(threads(connections)), token, path), connections, seconds);
    }

    /** Creates with ids from {@code firstId} on, for {@code seconds}. */
    WrkResult create(String url, long firstId, int connections, int seconds) throws IOException, InterruptedException {
        return run(url, List.of("create", Long.toString(firstId), Integer.toString(threads(connections)), token, "-"),
                connections, seconds);
    }

    /**
     * Creates exactly {@code count} plants with ids from {@code firstId} on, each wrk thread stopping at its share, or
     * fewer if {@code maxSeconds} runs out first.
     */
    WrkResult createExactly(String url, long firstId, long count, int connections, int maxSeconds)
            throws IOException, InterruptedException {
        int threads = threads(connections);
        List<String> shares = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            shares.add(Long.toString(count / threads + (i < count % threads ? 1 : 0)));
        }
        return run(url, List.of("create", Long.toString(firstId), Integer.toString(threads), token, "-",
                String.join(",", shares)), connections, maxSeconds);
    }

    /**
     * Deletes what {@code created} (a create run with the same {@code firstId} and connections) made, for at most
     * {@code seconds}: each wrk thread stops once it has deleted the ids its twin created.
     */
    WrkResult delete(String url, long firstId, WrkResult created, int connections, int seconds)
            throws IOException, InterruptedException {
        return run(url, List.of("delete", Long.toString(firstId), Integer.toString(threads(connections)), token, "-",
                created.sent()), connections, seconds);
    }

    /** wrk needs at least one connection per thread; two threads keep the generator on both cores. */
    private static int threads(int connections) {
        return Math.min(2, connections);
    }

    private WrkResult run(String url, List<String> scriptArgs, int connections, int seconds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("wrk", "-t" + threads(connections), "-c" + connections,
                "-d" + seconds + "s", "--timeout", "10s", "-s", script.toString(), url, "--"));
        command.addAll(scriptArgs);
        Processes.Finished wrk = Processes.run(command);
        if (wrk.exit() != 0) {
            throw new IOException("wrk exited with " + wrk.exit() + ": " + wrk.output());
        }
        String output = wrk.output();
        return WrkResult.parse(output).orElseThrow(() -> new IOException("wrk printed no result: " + output));
    }
}
