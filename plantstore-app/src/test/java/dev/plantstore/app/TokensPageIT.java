package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Sockets;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/tokens.md, run from the page with bash: the identity provider's command from the clone,
 * the server's in a directory of the test's own (where plantstore-app/target/plantstore.jar is the built jar, so that
 * its store is made there), then the client's; each prints the lines the page shows after it, where {@code ...}
 * stands for text left out. What the test changes: free ports for the page's 18200 and 8080, in the commands and the
 * lines shown (the server's through PLANTSTORE_PORT, as the page's command keeps the default); the token the provider
 * printed for the page's shortened one; the build's own local repository and offline mode for Maven, through
 * MAVEN_ARGS; the build's JVM first on the path; no PLANTSTORE_ variable of the build's environment; and no drain on
 * stop (PLANTSTORE_DRAIN_SECONDS=0), for a quick end.
 */
class TokensPageIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```$");
    private static final Pattern JWT = Pattern.compile("eyJ[\\w-]+\\.[\\w-]+\\.[\\w-]+");
    private static final String SHORTENED_TOKEN = "eyJraWQiOi...";
    /** Generous, for a busy machine: the test ends as soon as each process is ready. */
    private static final Duration START_LIMIT = Duration.ofSeconds(90);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    private record Step(String command, List<String> shown) {
    }

    @Test
    void theBoxCreatesAPlantWithATokenTheProviderIssued() throws Exception {
        int providerPort = Sockets.freePort();
        int serverPort = Sockets.freePort();
        List<Step> steps = boxSteps(providerPort, serverPort);
        assertEquals(3, steps.size(), "the box is the provider, the server and the client: " + steps);
        Path serverDir = Files.createDirectories(dir.resolve("server"));
        Path jar = Files.createDirectories(serverDir.resolve("plantstore-app/target")).resolve("plantstore.jar");
        Files.createSymbolicLink(jar, Path.of(System.getProperty("plantstore.jar")).toAbsolutePath());

        // The server needs the provider only for a token's first check, so both start at once.
        JarProcess provider = start(steps.get(0).command(), ROOT, "provider", Map.of());
        JarProcess server = start(steps.get(1).command(), serverDir, "server",
                Map.of("PLANTSTORE_PORT", Integer.toString(serverPort), "PLANTSTORE_DRAIN_SECONDS", "0"));
        try {
            String token = provider.awaitReady(START_LIMIT, Duration.ofMillis(100), () -> provider.output().lines()
                    .filter(line -> JWT.matcher(line).matches()).findFirst());
            assertShown(steps.get(0), provider.output());
            server.awaitReady(START_LIMIT, Duration.ofMillis(100), () -> Optional.of(server.output())
                    .filter(output -> output.contains("plantstore listening on ")));
            assertShown(steps.get(1), server.output());

            Step client = steps.get(2);
            assertTrue(client.command().contains(SHORTENED_TOKEN), "the client's command uses the token: " + client);
            String command = client.command().replace(SHORTENED_TOKEN, token);
            JarProcess curl = start(command, dir, "client", Map.of());
            try {
                assertTrue(curl.process().waitFor(30, TimeUnit.SECONDS), "curl ends: " + curl.output());
                assertEquals(0, curl.process().exitValue(), curl.output());
                assertShown(client, curl.output());
            } finally {
                curl.close(STOP_LIMIT);
            }
        } finally {
            stop(server);
            stop(provider);
        }
    }

    /** The box's commands, each with the output shown after it, the page's ports replaced with these. */
    private static List<Step> boxSteps(int providerPort, int serverPort) throws Exception {
        String page = Files.readString(ROOT.resolve("docs/tokens.md"));
        int start = page.indexOf("\n## Do this\n");
        assertTrue(start >= 0, "docs/tokens.md has a Do this box");
        int end = page.indexOf("\n## ", start + 1);
        String box = page.substring(start, end < 0 ? page.length() : end)
                .replaceAll("\\b18200\\b", Integer.toString(providerPort))
                .replaceAll("\\b8080\\b", Integer.toString(serverPort));
        List<Step> steps = new ArrayList<>();
        Matcher block = BLOCK.matcher(box);
        String command = null;
        while (block.find()) {
            if ("sh".equals(block.group(1))) {
                assertTrue(command == null, "each command is followed by its output:\n" + box);
                command = block.group(2);
            } else {
                assertTrue(command != null, "each output follows a command:\n" + box);
                steps.add(new Step(command, block.group(2).lines().toList()));
                command = null;
            }
        }
        return steps;
    }

    private JarProcess start(String command, Path workDir, String name, Map<String, String> settings)
            throws Exception {
        var builder = new ProcessBuilder("bash", "-c", command).directory(workDir.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(variable -> variable.startsWith("PLANTSTORE_"));
        env.putAll(settings);
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator + env.get("PATH"));
        String mavenArgs = "-Dmaven.repo.local=" + System.getProperty("plantstore.maven.repository");
        env.put("MAVEN_ARGS", "offline true".equals(System.getProperty("plantstore.maven.mode"))
                ? "-o " + mavenArgs : mavenArgs);
        return JarProcess.start(builder, dir.resolve(name + ".log"));
    }

    /** Each line the page shows is printed, in that order; {@code ...} in a line stands for any text. */
    private static void assertShown(Step step, String output) {
        List<String> printed = output.lines().map(line -> line.replace("\r", "")).toList();
        int next = 0;
        for (String shown : step.shown()) {
            if (shown.equals("...")) {
                continue;
            }
            Pattern pattern = Pattern.compile(List.of(shown.split("\\.\\.\\.", -1)).stream().map(Pattern::quote)
                    .collect(Collectors.joining(".*")));
            while (next < printed.size() && !pattern.matcher(printed.get(next)).matches()) {
                next++;
            }
            assertTrue(next < printed.size(), "'" + shown + "' is printed after the lines before it by\n"
                    + step.command() + "\nwhich printed:\n" + output);
            next++;
        }
    }

    private static void stop(JarProcess process) {
        process.process().descendants().forEach(ProcessHandle::destroy);
        process.close(STOP_LIMIT);
    }
}
