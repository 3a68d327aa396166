package dev.plantstore.bench;

import dev.plantstore.testkit.JarProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A server under test in a JVM of its own: started, probed until it answers, measured, stopped. */
final class JvmServer implements AutoCloseable {

    private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(30);

    private final String name;
    private final JarProcess process;
    private final int port;
    private final long startupNanos;

    private JvmServer(String name, JarProcess process, int port, long startupNanos) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.startupNanos = startupNanos;
    }

    /**
     * Runs {@code java jvmOptions -jar jar appArgs(port)} and waits for a 200 from {@code readyPath}; the time from
     * launching the process to that answer is the start-up time.
     */
    static JvmServer start(String name, List<String> jvmOptions, Path jar, List<String> appArgs,
                           Map<String, String> env, String readyPath, Path log)
            throws IOException, InterruptedException {
        int port = freePort();
        List<String> args = appArgs.stream().map(arg -> arg.replace("{port}", Integer.toString(port))).toList();
        var builder = new ProcessBuilder(JarProcess.command(jvmOptions, jar, args));
        builder.environment().putAll(env);
        long launched = System.nanoTime();
        JarProcess process = JarProcess.start(builder, log);
        var ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + readyPath))
                .timeout(Duration.ofSeconds(5)).build();
        long startupNanos = process.awaitReady(START_LIMIT, Duration.ofMillis(5), () -> {
            try {
                if (PROBE.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return Optional.of(System.nanoTime() - launched);
                }
            } catch (IOException notYet) {
                // Not listening yet: probe again shortly.
            }
            return Optional.empty();
        });
        return new JvmServer(name, process, port, startupNanos);
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    String name() {
        return name;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    double startupMillis() {
        return startupNanos / 1e6;
    }

    /** Resident set size from {@code /proc}, in KiB. */
    long rssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.process().pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for process " + process.process().pid());
    }

    /** Stops the server with SIGTERM, as an operator would, and waits up to 30 s for it to exit. */
    @Override
    public void close() {
        process.close(STOP_LIMIT);
    }
}
