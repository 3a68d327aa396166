package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * target/plantstore.jar started with {@code java -jar} on a free loopback port. Its output goes to a file rather than
 * a pipe: the JDK may close a process's pipe under a reader when the process exits, losing the last lines.
 */
final class RunningJar implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("plantstore listening on http://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern MANAGEMENT = Pattern.compile("plantstore management on http://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern GENERATED_TOKEN = Pattern.compile("(?m)^  ([A-Za-z0-9_-]{43})$");

    private final Process process;
    private final Path log;
    private int port;

    private RunningJar(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    record Completed(int exitCode, String stdout, String stderr) {
    }

    private static List<String> command(String... args) {
        String jar = System.getProperty("plantstore.jar");
        assertTrue(jar != null && Path.of(jar).toFile().isFile(), "plantstore.jar property names the built jar: " + jar);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar);
        command.addAll(List.of(args));
        return command;
    }

    static RunningJar start(Path workDir, Map<String, String> env, String... args) throws Exception {
        // No drain unless a test asks for one: each stop would wait for it. A later flag overrides an earlier one.
        List<String> fullArgs = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "0", "--drain-seconds", "0"));
        fullArgs.addAll(List.of(args));
        Path log = Files.createTempFile(workDir, "jar", ".log");
        var builder = new ProcessBuilder(command(fullArgs.toArray(String[]::new)))
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("PLANTSTORE_"));
        builder.environment().putAll(env);
        var jar = new RunningJar(builder.start(), log);
        jar.awaitListening();
        return jar;
    }

    static Completed runToCompletion(Path workDir, String... args) throws Exception {
        var builder = new ProcessBuilder(command(args)).directory(workDir.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("PLANTSTORE_"));
        Process process = builder.start();
        var stdout = new StringBuffer();
        var stderr = new StringBuffer();
        Thread out = new Thread(() -> copy(process.getInputStream(), stdout));
        Thread err = new Thread(() -> copy(process.getErrorStream(), stderr));
        out.start();
        err.start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            out.join();
            err.join();
            fail("the process did not end within 30 s; it printed " + stdout + stderr);
        }
        out.join();
        err.join();
        return new Completed(process.exitValue(), stdout.toString(), stderr.toString());
    }

    private void awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String output = outputSoFar();
            Matcher matcher = LISTENING.matcher(output);
            if (matcher.find()) {
                port = Integer.parseInt(matcher.group(1));
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("jar exited with " + process.exitValue() + ":\n" + output);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("jar did not report listening within 30 s:\n" + outputSoFar());
    }

    private static void copy(InputStream in, StringBuffer into) {
        byte[] buffer = new byte[4096];
        try (in) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                into.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            into.append("\n[output reader failed: ").append(e).append("]\n");
        }
    }

    Process process() {
        return process;
    }

    int port() {
        return port;
    }

    /** The management port's URI for {@code path}; the jar must have been started with {@code --management-port}. */
    URI managementUri(String path) {
        Matcher matcher = MANAGEMENT.matcher(outputSoFar());
        assertTrue(matcher.find(), "a management line is printed:\n" + outputSoFar());
        return URI.create("http://127.0.0.1:" + matcher.group(1) + path);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    String outputSoFar() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String generatedToken() {
        String output = outputSoFar();
        Matcher matcher = GENERATED_TOKEN.matcher(output);
        assertTrue(matcher.find(), "a generated token is printed:\n" + output);
        return matcher.group(1);
    }

    /** SIGTERM, wait for exit, and everything the process printed. */
    String stopAndCollectOutput() throws InterruptedException {
        process.destroy();
        assertTrue(process.waitFor(15, TimeUnit.SECONDS), "stops within 15 s");
        return outputSoFar();
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
