package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.plantstore.testkit.JarProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * target/plantstore.jar started with {@code java -jar} on a free loopback port, its output in a file of the test's
 * directory.
 */
final class RunningJar implements AutoCloseable {

    /** With TLS options the lines say {@code https}: {@link #uri} and {@link #managementUri} say it too. */
    private static final Pattern LISTENING =
            Pattern.compile("plantstore listening on (https?)://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern MANAGEMENT =
            Pattern.compile("plantstore management on (https?)://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern GENERATED_TOKEN = Pattern.compile("(?m)^  ([A-Za-z0-9_-]{43})$");
    /**
     * Catches a jar that never gets ready, not a slow one: a start takes 1 to 3 s here when idle, and up to ten times
     * that on a day when two suites and a load share the two cores.
     */
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    /**
     * Catches a stop that hangs: the server's own stop gives up after 10 s and says so in its exit code, which the
     * tests of a clean stop check; this only keeps a hung JVM from holding the suite.
     */
    static final Duration STOP_LIMIT = Duration.ofSeconds(60);
    /**
     * Catches a command that hangs, for the commands whose work is small (a version, a refusal, a backup or a
     * migration of a few plants: under 3 s here when idle). A command whose work grows with its input passes a limit
     * derived from that work.
     */
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(120);
    private static final List<String> AS_NOBODY =
            List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--");

    /** One client for every read of the metrics: a new one per read starts a thread, which a busy machine feels. */
    private static final HttpClient METRICS_CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .build();

    private final JarProcess jar;
    private final int port;

    private RunningJar(JarProcess jar, int port) {
        this.jar = jar;
        this.port = port;
    }

    record Completed(int exitCode, String stdout, String stderr) {
    }

    static Path builtJar() {
        String jar = System.getProperty("plantstore.jar");
        assertTrue(jar != null && Path.of(jar).toFile().isFile(),
                "plantstore.jar property names the built jar: " + jar);
        return Path.of(jar);
    }

    /**
     * A copy of the built jar in {@code workDir}, readable by all: the build's own jar may be out of {@code nobody}'s
     * reach, in a clone under a private folder (a home directory of mode 700). {@code workDir} must be open to all.
     */
    private static Path jarForNobody(Path workDir) throws IOException {
        Path copy = Files.copy(builtJar(), workDir.resolve("plantstore.jar"), StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
        return copy;
    }

    /**
     * The jar's command, in {@code workDir}, with none of the PLANTSTORE_ or OTEL_ variables of the build's
     * environment.
     */
    private static ProcessBuilder processBuilder(Path workDir, String... args) {
        return processBuilder(List.of(), builtJar(), workDir, args);
    }

    /** As {@link #processBuilder(Path, String...)}, {@code jar} run through {@code launcher} (setpriv, say). */
    private static ProcessBuilder processBuilder(List<String> launcher, Path jar, Path workDir, String... args) {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(JarProcess.command(List.of(), jar, List.of(args)));
        var builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("PLANTSTORE_") || name.startsWith("OTEL_"));
        return builder;
    }

    static RunningJar start(Path workDir, Map<String, String> env, String... args) throws Exception {
        return start(List.of(), builtJar(), workDir, env, args);
    }

    /** As {@link #start(Path, Map, String...)}, from {@code jar} rather than the built one (an earlier release's). */
    static RunningJar startJar(Path jar, Path workDir, Map<String, String> env, String... args) throws Exception {
        return start(List.of(), jar, workDir, env, args);
    }

    /**
     * As {@link #start(Path, Map, String...)}, as user {@code nobody}, whom file permissions bind (root they do not),
     * from a copy of the jar in {@code workDir}, which must be open to all.
     */
    static RunningJar startAsNobody(Path workDir, Map<String, String> env, String... args) throws Exception {
        return start(AS_NOBODY, jarForNobody(workDir), workDir, env, args);
    }

    static Completed runToCompletionAsNobody(Path workDir, Map<String, String> env, String... args) throws Exception {
        var builder = processBuilder(AS_NOBODY, jarForNobody(workDir), workDir, args);
        builder.environment().putAll(env);
        return runToCompletion(builder, COMMAND_LIMIT);
    }

    /**
     * As {@link #start(Path, Map, String...)}, in a mount namespace of its own where {@code /etc/resolv.conf} is
     * {@code resolvConf}: the jar's name lookups go to the name servers that file names. Needs root.
     */
    static RunningJar startResolvingNamesWith(Path resolvConf, Path workDir, Map<String, String> env, String... args)
            throws Exception {
        return start(List.of("unshare", "--mount", "--propagation", "private", "sh", "-c",
                "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", resolvConf.toString()),
                builtJar(), workDir, env, args);
    }

    /**
     * As {@link #start(Path, Map, String...)}, as at a terminal, where Ctrl-C sends SIGINT. A process a shell starts
     * in the background (as a build may be) inherits SIGINT ignored, and so would the jar; Perl's exec restores its
     * default action first.
     */
    static RunningJar startAsAtATerminal(Path workDir, Map<String, String> env, String... args) throws Exception {
        return start(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec { $ARGV[0] } @ARGV or die \"exec: $!\";"),
                builtJar(), workDir, env, args);
    }

    private static RunningJar start(List<String> launcher, Path jar, Path workDir, Map<String, String> env,
            String... args) throws Exception {
        var builder = processBuilder(launcher, jar, workDir, withTestDefaults(args));
        builder.environment().putAll(env);
        var process = JarProcess.start(builder, Files.createTempFile(workDir, "jar", ".log"));
        try {
            int port = process.awaitReady(START_LIMIT, Duration.ofMillis(20), () -> {
                Matcher listening = LISTENING.matcher(process.output());
                return listening.find() ? Optional.of(Integer.parseInt(listening.group(2))) : Optional.empty();
            });
            return new RunningJar(process, port);
        } catch (IOException notReady) {
            throw new AssertionError(notReady.getMessage(), notReady);
        }
    }

    /** The built jar started as {@link #start(Path, Map, String...)} does, without waiting for it to be ready. */
    static JarProcess launch(Path workDir, Map<String, String> env, String... args) throws IOException {
        var builder = processBuilder(workDir, withTestDefaults(args));
        builder.environment().putAll(env);
        return JarProcess.start(builder, Files.createTempFile(workDir, "jar", ".log"));
    }

    /** No drain unless a test asks for one: each stop would wait for it. A later flag overrides an earlier one. */
    private static String[] withTestDefaults(String... args) {
        List<String> fullArgs = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "0", "--drain-seconds", "0"));
        fullArgs.addAll(List.of(args));
        return fullArgs.toArray(String[]::new);
    }

    static Completed runToCompletion(Path workDir, String... args) throws Exception {
        return runToCompletion(processBuilder(workDir, args), COMMAND_LIMIT);
    }

    /** As {@link #runToCompletion(Path, String...)}, given up on after {@code limit}, for a command of long work. */
    static Completed runToCompletion(Duration limit, Path workDir, String... args) throws Exception {
        return runToCompletion(processBuilder(workDir, args), limit);
    }

    /** As {@link #runToCompletion(Path, String...)}, from {@code jar} rather than the built one. */
    static Completed runJarToCompletion(Path jar, Path workDir, String... args) throws Exception {
        return runToCompletion(processBuilder(List.of(), jar, workDir, args), COMMAND_LIMIT);
    }

    static Completed runToCompletion(Path workDir, Map<String, String> env, String... args) throws Exception {
        var builder = processBuilder(workDir, args);
        builder.environment().putAll(env);
        return runToCompletion(builder, COMMAND_LIMIT);
    }

    private static Completed runToCompletion(ProcessBuilder builder, Duration limit) throws Exception {
        Process process = builder.start();
        var stdout = new StringBuffer();
        var stderr = new StringBuffer();
        Thread out = new Thread(() -> copy(process.getInputStream(), stdout));
        Thread err = new Thread(() -> copy(process.getErrorStream(), stderr));
        out.start();
        err.start();
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            out.join();
            err.join();
            fail("the process did not end within " + limit.toSeconds() + " s; it printed " + stdout + stderr);
        }
        out.join();
        err.join();
        return new Completed(process.exitValue(), stdout.toString(), stderr.toString());
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
        return jar.process();
    }

    int port() {
        return port;
    }

    /** The management port's URI for {@code path}; the jar must have been started with {@code --management-port}. */
    URI managementUri(String path) {
        Matcher matcher = MANAGEMENT.matcher(outputSoFar());
        assertTrue(matcher.find(), "a management line is printed:\n" + outputSoFar());
        return URI.create(matcher.group(1) + "://127.0.0.1:" + matcher.group(2) + path);
    }

    /** What the management port's {@code /metrics} answers now. */
    String metrics() {
        try {
            return METRICS_CLIENT.send(HttpRequest.newBuilder(managementUri("/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    URI uri(String path) {
        Matcher listening = LISTENING.matcher(outputSoFar());
        String scheme = listening.find() ? listening.group(1) : "http";
        return URI.create(scheme + "://127.0.0.1:" + port + path);
    }

    String outputSoFar() {
        return jar.output();
    }

    String generatedToken() {
        String output = outputSoFar();
        Matcher matcher = GENERATED_TOKEN.matcher(output);
        assertTrue(matcher.find(), "a generated token is printed:\n" + output);
        return matcher.group(1);
    }

    /** SIGINT, as Ctrl-C at a terminal sends it. */
    void interrupt() throws Exception {
        assertEquals(0,
                new ProcessBuilder("kill", "-INT", Long.toString(process().pid())).inheritIO().start().waitFor(),
                "kill -INT");
    }

    /** SIGTERM, wait for exit, and everything the process printed. */
    String stopAndCollectOutput() throws InterruptedException {
        assertTrue(jar.stop(STOP_LIMIT), "stops within " + STOP_LIMIT.toSeconds() + " s");
        return outputSoFar();
    }

    @Override
    public void close() {
        jar.close(STOP_LIMIT);
    }
}
