package dev.plantstore.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's PostgreSQL programs run as the {@code postgres} user, which the tests (run as root) switch to with
 * {@code runuser}, in a directory of their own under {@code /tmp} that the tests delete. For the tests of a database
 * that fails over or whose standby is gone: real servers of the test's own, on ports of its own, never the machine's
 * shared one. Without root or the programs the calling test is skipped; with {@value #REQUIRED_VARIABLE} set to
 * {@code required} (as {@code .ci/run} sets it) it fails instead.
 */
public final class PostgresAsPostgres implements AutoCloseable {

    public static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_FAILOVER";
    private static final Path VERSIONS = Path.of("/usr/lib/postgresql");
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(60);

    private final Path bin;
    private final Path dir;

    private PostgresAsPostgres(Path bin, Path dir) {
        this.bin = bin;
        this.dir = dir;
    }

    /**
     * A directory owned by {@code postgres} and the newest installed PostgreSQL's programs; skips or fails the calling
     * test, as above, without them or root.
     *
     * @param also programs the test needs besides PostgreSQL's, each with its Debian package
     */
    public static PostgresAsPostgres prepare(Map<Path, String> also) throws IOException, InterruptedException {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root && "required".equals(System.getenv(REQUIRED_VARIABLE))) {
            throw new AssertionError(REQUIRED_VARIABLE + "=required but the tests do not run as root");
        }
        Assumptions.assumeTrue(root, "servers of the test's own run as postgres, which needs root to switch to");
        Path bin = newestBin();
        var programs = new HashMap<>(also);
        programs.put(bin.resolve("initdb"), "postgresql");
        programs.put(Path.of("/usr/sbin/runuser"), "util-linux");
        RequiredTools.require("PostgreSQL failover tests", REQUIRED_VARIABLE, programs);
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "plantstore-pg-");
        var prepared = new PostgresAsPostgres(bin, dir);
        prepared.runAsRoot("chown", "postgres:postgres", dir.toString());
        return prepared;
    }

    private static Path newestBin() throws IOException {
        if (!Files.isDirectory(VERSIONS)) {
            return VERSIONS.resolve("bin");
        }
        try (Stream<Path> versions = Files.list(VERSIONS)) {
            return versions.filter(version -> Files.isExecutable(version.resolve("bin/initdb")))
                    .max(Comparator.comparingInt(version -> Integer.parseInt(version.getFileName().toString())))
                    .orElse(VERSIONS)
                    .resolve("bin");
        }
    }

    /** The directory the servers keep their data and logs in. */
    public Path dir() {
        return dir;
    }

    /** Where PostgreSQL's programs are: {@code /usr/lib/postgresql/15/bin}. */
    public Path bin() {
        return bin;
    }

    /**
     * Starts a server of its own on {@code port} with {@code settings} (postgresql.conf names), data in
     * {@code dir()/name}, trusting local connections; returns its JDBC URL, as user {@code postgres}.
     */
    public String startServer(String name, int port, Map<String, String> settings) throws Exception {
        Path data = dir.resolve(name);
        runAsPostgres(COMMAND_LIMIT, bin.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust",
                "-U", "postgres", "--no-sync");
        List<String> options = new ArrayList<>(List.of("-p " + port, "-k " + dir, "-c listen_addresses=127.0.0.1"));
        settings.forEach((setting, value) -> options.add("-c " + setting + "=" + value));
        runAsPostgres(COMMAND_LIMIT, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-l",
                dir.resolve(name + ".log").toString(), "-o", String.join(" ", options), "start");
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** Runs {@code command} as {@code postgres}; fails with what it printed unless it exits 0 within {@code limit}. */
    public String runAsPostgres(Duration limit, String... command) throws IOException, InterruptedException {
        return run(limit, asPostgres(command));
    }

    /** As {@link #runAsPostgres} but started and left running; its output goes to {@code dir()/log}. */
    public Process startAsPostgres(String log, String... command) throws IOException {
        return new ProcessBuilder(asPostgres(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(log).toFile())).start();
    }

    /**
     * {@code command} as {@code postgres}, with the programs of {@link #bin()} first on the path. The XDG directories,
     * where pg_autoctl keeps its configuration and state, are in this directory too, so that nothing is left in the
     * user's home.
     */
    private List<String> asPostgres(String... command) {
        List<String> asPostgres = new ArrayList<>(List.of("runuser", "-u", "postgres", "--", "env",
                "PATH=" + bin + ":/usr/bin:/bin", "PG_CONFIG=" + bin.resolve("pg_config"),
                "XDG_CONFIG_HOME=" + dir.resolve("xdg-config"), "XDG_DATA_HOME=" + dir.resolve("xdg-data"),
                "XDG_RUNTIME_DIR=" + dir.resolve("xdg-run")));
        asPostgres.addAll(List.of(command));
        return asPostgres;
    }

    private void runAsRoot(String... command) throws IOException, InterruptedException {
        run(COMMAND_LIMIT, List.of(command));
    }

    private static String run(Duration limit, List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("plantstore-command", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new AssertionError(String.join(" ", command) + " did not end within " + limit.toSeconds()
                        + " s: " + Files.readString(output));
            }
            String printed = Files.readString(output);
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed (" + process.exitValue() + "): "
                        + printed);
            }
            return printed;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /**
     * Kills every process of {@code postgres} that runs from this directory (servers, keepers) with all their
     * children, waits for them to be gone and deletes the directory: nothing a test started survives it.
     */
    @Override
    public void close() throws IOException {
        List<ProcessHandle> started = ProcessHandle.allProcesses()
                .filter(process -> process.info().user().filter("postgres"::equals).isPresent())
                .filter(process -> process.info().commandLine().filter(line -> line.contains(dir.toString()))
                        .isPresent())
                .flatMap(process -> Stream.concat(Stream.of(process), process.descendants()))
                .toList();
        started.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : started) {
            try {
                process.onExit().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("process " + process.pid() + " of the test's servers did not end", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while ending the test's servers", e);
            }
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
