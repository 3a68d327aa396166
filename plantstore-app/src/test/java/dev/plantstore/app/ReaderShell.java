package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.DoThisBox;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Sockets;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A page's "Do this" commands run with bash as a reader runs them, in a directory of the test's own where
 * plantstore-app/target/plantstore.jar is the built jar (so that a store the commands make is made there). What
 * differs from the reader's shell: the build's JVM first on the path; no PLANTSTORE_ variable of the build's
 * environment; no drain on stop (PLANTSTORE_DRAIN_SECONDS=0), for a quick end; the build's own local repository and
 * offline mode for Maven, through MAVEN_ARGS. Closing it stops every command still running.
 */
final class ReaderShell implements AutoCloseable {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Generous, for a busy machine: a test goes on as soon as a command has printed what the page shows. */
    private static final Duration START_LIMIT = Duration.ofSeconds(90);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(15);

    private final Path logs;
    private final Path workDir;
    private final List<JarProcess> started = new ArrayList<>();

    private ReaderShell(Path logs, Path workDir) {
        this.logs = logs;
        this.workDir = workDir;
    }

    /** A shell whose commands log into {@code dir} and run in a directory inside it, beside a link to the jar. */
    static ReaderShell in(Path dir) throws Exception {
        Path workDir = Files.createDirectories(dir.resolve("reader"));
        Path jar = Files.createDirectories(workDir.resolve("plantstore-app/target")).resolve("plantstore.jar");
        Files.createSymbolicLink(jar, Path.of(System.getProperty("plantstore.jar")).toAbsolutePath());
        return new ReaderShell(dir, workDir);
    }

    Path workDir() {
        return workDir;
    }

    /** Starts {@code command} in the shell's directory, {@code settings} added to its environment. */
    JarProcess start(String command, String name, Map<String, String> settings) throws Exception {
        return start(command, workDir, name, settings);
    }

    /** Starts {@code command} in {@code directory}, {@code settings} added to its environment. */
    JarProcess start(String command, Path directory, String name, Map<String, String> settings) throws Exception {
        var builder = new ProcessBuilder("bash", "-c", command).directory(directory.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(variable -> variable.startsWith("PLANTSTORE_"));
        env.put("PLANTSTORE_DRAIN_SECONDS", "0");
        env.putAll(settings);
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator + env.get("PATH"));
        String mavenArgs = "-Dmaven.repo.local=" + System.getProperty("plantstore.maven.repository");
        env.put("MAVEN_ARGS", "offline true".equals(System.getProperty("plantstore.maven.mode"))
                ? "-o " + mavenArgs : mavenArgs);
        JarProcess process = JarProcess.start(builder, logs.resolve(name + ".log"));
        started.add(process);
        return process;
    }

    /** Waits until the command that {@code process} runs, still running, has printed what {@code step} shows. */
    static void awaitShown(JarProcess process, DoThisBox.Step step) throws Exception {
        process.awaitReady(START_LIMIT, Duration.ofMillis(100),
                () -> step.isShownIn(process.output()) ? Optional.of(true) : Optional.empty());
    }

    /** Runs {@code step}'s command to its end, which must be a success that printed what the step shows. */
    void run(DoThisBox.Step step, String name, Map<String, String> settings) throws Exception {
        run(step, workDir, name, settings);
    }

    /** As {@link #run(DoThisBox.Step, String, Map)}, in {@code directory}. */
    void run(DoThisBox.Step step, Path directory, String name, Map<String, String> settings) throws Exception {
        JarProcess process = start(step.command(), directory, name, settings);
        assertTrue(process.process().waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS),
                "ends: " + step.command() + "\n" + process.output());
        assertEquals(0, process.process().exitValue(), step.command() + "\n" + process.output());
        step.assertShownIn(process.output());
    }

    /**
     * The usual box: the first step starts the server, on the page's port 8080 (its default, so given here through
     * PLANTSTORE_PORT) made a free one, and each later step is run to its end once the server has printed what the
     * first step shows. {@code otherPorts} are further ports the page names, each made a free one.
     */
    static void runServerThenCommands(String page, Path dir, String... otherPorts) throws Exception {
        String serverPort = Integer.toString(Sockets.freePort());
        var ports = new HashMap<String, String>(Map.of("8080", serverPort));
        for (String port : otherPorts) {
            ports.put(port, Integer.toString(Sockets.freePort()));
        }
        List<DoThisBox.Step> steps = DoThisBox.steps(ROOT.resolve(page), ports);
        assertTrue(steps.size() >= 2, page + ": the server, then what to do with it: " + steps);
        try (ReaderShell shell = in(dir)) {
            JarProcess server = shell.start(steps.get(0).command(), "server", Map.of("PLANTSTORE_PORT", serverPort));
            awaitShown(server, steps.get(0));
            for (int i = 1; i < steps.size(); i++) {
                shell.run(steps.get(i), "step-" + i, Map.of());
            }
        }
    }

    /** Stops what is still running, the children of each shell first (bash does not pass its signal on). */
    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            JarProcess process = started.get(i);
            process.process().descendants().forEach(ProcessHandle::destroy);
            process.close(STOP_LIMIT);
        }
    }
}
