package dev.plantstore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A runnable jar in a JVM of its own, started with this JVM's {@code java}. Its output and errors go to one file
 * rather than a pipe: the JDK may close a process's pipe under a reader when the process exits, losing the last lines.
 */
public final class JarProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private JarProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * The system property that holds the JVM options the build gives every jar a test starts, before the test's own:
     * in the quick suite the JIT's first tier only, since a jar that lives for seconds spends more of its processor
     * on the second tier's compiling than it gains from it; in the heavy suites, which bound the server's speed, both.
     */
    public static final String BUILD_JVM_OPTIONS = "plantstore.test.jar.jvmOptions";

    /** {@code java buildOptions jvmOptions -jar jar args}, with the {@code java} of the JVM running this code. */
    public static List<String> command(List<String> jvmOptions, Path jar, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : System.getProperty(BUILD_JVM_OPTIONS, "").trim().split("\\s+")) {
            if (!option.isEmpty()) {
                command.add(option);
            }
        }
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        return command;
    }

    /** Starts {@code builder}, its output and errors together into {@code log}. */
    public static JarProcess start(ProcessBuilder builder, Path log) throws IOException {
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return new JarProcess(builder.start(), log);
    }

    /**
     * Asks {@code probe} every {@code interval} until it answers, for at most {@code limit}. A process that exits
     * first, or is not ready in time (it is then killed), fails with its output in the message.
     */
    public <T> T awaitReady(Duration limit, Duration interval, Poll.Probe<T, IOException> probe)
            throws IOException, InterruptedException {
        Optional<T> ready = Poll.until(limit, interval, () -> {
            Optional<T> answer = probe.check();
            if (answer.isEmpty() && !process.isAlive()) {
                throw new IOException("the jar exited with " + process.exitValue() + " before it was ready; "
                        + describeOutput());
            }
            return answer;
        });
        if (ready.isPresent()) {
            return ready.get();
        }
        process.destroyForcibly().waitFor();
        throw new IOException("the jar was not ready within " + limit.toSeconds() + " s; " + describeOutput());
    }

    private String describeOutput() {
        return log + " holds:\n" + output();
    }

    public Process process() {
        return process;
    }

    public Path log() {
        return log;
    }

    /** Everything the process has printed so far. */
    public String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stops the process with SIGTERM, as an operator would, and waits up to {@code grace} for it to exit; one still
     * running then is killed. True if it stopped within {@code grace}.
     */
    public boolean stop(Duration grace) throws InterruptedException {
        process.destroy();
        if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        process.destroyForcibly().waitFor();
        return false;
    }

    /** {@link #stop} with {@code grace}, unless the process has ended already; an interrupt kills it at once. */
    public void close(Duration grace) {
        try {
            if (process.isAlive()) {
                stop(grace);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #close(Duration)} with 15 s, the longest a drain-free stop of the server should take. */
    @Override
    public void close() {
        close(Duration.ofSeconds(15));
    }
}
