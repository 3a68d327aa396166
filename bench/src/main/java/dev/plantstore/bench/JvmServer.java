package dev.plantstore.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A server under test in a JVM of its own: started, probed until it answers, measured, stopped. */
final class JvmServer implements AutoCloseable {

    private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    private final String name;
    private final Process process;
    private final int port;
    private final long startupNanos;

    private JvmServer(String name, Process process, int port, long startupNanos) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.startupNanos = startupNanos;
    }

    /**
     * Runs {@code java jvmOptions -jar jar appArgs(port)} and waits for a 200 from {@code readyPath}; the time from
     * launching the process to that answer is the start-up time.
     */
    static JvmServer start(String name, List<String> jvmOptions, Path jar, List<String> appArgs, Map<String, String> env,
                           String readyPath, Path log) throws IOException, InterruptedException {
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        for (String arg : appArgs) {
            command.add(arg.replace("{port}", Integer.toString(port)));
        }
        var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        long launched = System.nanoTime();
        Process process = builder.start();
        return new JvmServer(name, process, port, awaitReady(process, port, readyPath, launched, log));
    }

    private static long awaitReady(Process process, int port, String readyPath, long launched, Path log)
            throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + readyPath))
                .timeout(Duration.ofSeconds(5)).build();
        while (System.nanoTime() - launched < START_LIMIT.toNanos()) {
            if (!process.isAlive()) {
                throw new IOException("server exited with " + process.exitValue() + "; see " + log);
            }
            try {
                if (PROBE.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return System.nanoTime() - launched;
                }
            } catch (IOException notYet) {
                // Not listening yet: probe again shortly.
            }
            Thread.sleep(5);
        }
        process.destroyForcibly();
        throw new IOException("server did not answer " + readyPath + " within " + START_LIMIT + "; see " + log);
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
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for process " + process.pid());
    }

    /** Stops the server with SIGTERM, as an operator would, and waits for it to exit. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
