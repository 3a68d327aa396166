package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.DoThisBox;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library page's "Do this" box, run from the page: its sample project (docs/library-sample) runs with the command
 * the box gives, with the Maven the page names ({@code mvn} when on the path, else this clone's wrapper, as the page
 * says), on the box's port made a free one, and prints what the box shows; then the box's create, with the token the
 * sample printed, answers as shown. The page's "Testing your application" command runs the sample's own test, of its
 * application with the API mounted, and prints what the page shows. The sample runs against the jars this build has
 * just made: they are laid out in a local repository of the test's own, beside a copy of the sample, so that neither
 * the source tree nor ~/.m2 changes. Every other library and plugin is taken from the build's own local repository,
 * read as a remote one, and from Maven Central when the build is online.
 */
class LibrarySampleIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SAMPLE = ROOT.resolve("docs/library-sample");
    /** What the page's create has in place of the token the sample printed. */
    private static final String PASTED_TOKEN = "paste-the-printed-token";
    private static final Pattern TOKEN = Pattern.compile("token \\(PLANTS_TOKEN was not set\\): (\\S+)");
    private static final Duration START_LIMIT = Duration.ofMinutes(4);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void thePagesBoxServesACreateOnThePortAsked() throws Exception {
        String port = Integer.toString(Sockets.freePort());
        List<DoThisBox.Step> steps = DoThisBox.steps(ROOT.resolve("docs/library.md"), Map.of("7070", port));
        assertEquals(2, steps.size(), "the box is the sample, then a create: " + steps);
        List<String> command = maven(steps.get(0));
        Path project = copyOfTheSample();
        Path output = dir.resolve("sample.log");
        var builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().remove("PLANTS_TOKEN");
        builder.environment().put("PLANTS_PORT", port);
        Process sample = builder.start();
        try {
            boolean shown = Poll.until(START_LIMIT, Duration.ofMillis(200), () -> {
                if (!sample.isAlive()) {
                    throw new AssertionError(command + " ended:\n" + Files.readString(output));
                }
                return steps.get(0).isShownIn(Files.readString(output));
            });
            String printed = Files.readString(output);
            assertTrue(shown, command + " did not print what the page shows within " + START_LIMIT + ":\n" + printed);
            Matcher token = TOKEN.matcher(printed);
            assertTrue(token.find(), "the generated token is printed:\n" + printed);

            DoThisBox.Step create = steps.get(1);
            assertTrue(create.command().contains(PASTED_TOKEN), "the create uses the printed token: " + create);
            Process curl = new ProcessBuilder("bash", "-c", create.command().replace(PASTED_TOKEN, token.group(1)))
                    .redirectErrorStream(true).start();
            String answer = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(curl.waitFor(30, TimeUnit.SECONDS), create.command());
            assertEquals(0, curl.exitValue(), answer);
            create.assertShownIn(answer);

            var own = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("your own routes are untouched", own.body());
        } finally {
            sample.descendants().forEach(ProcessHandle::destroy);
            sample.destroy();
            if (!sample.waitFor(30, TimeUnit.SECONDS)) {
                sample.descendants().forEach(ProcessHandle::destroyForcibly);
                sample.destroyForcibly();
            }
        }
    }

    @Test
    void theTestingSectionsCommandRunsTheSamplesTestsAsPrinted() throws Exception {
        List<DoThisBox.Step> steps = DoThisBox.steps(ROOT.resolve("docs/library.md"), "Testing your application",
                Map.of());
        assertEquals(1, steps.size(), "the section is the test command: " + steps);
        List<String> command = maven(steps.get(0));
        Path output = dir.resolve("test.log");
        Process test = new ProcessBuilder(command).directory(copyOfTheSample().toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!test.waitFor(START_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
            test.descendants().forEach(ProcessHandle::destroyForcibly);
            test.destroyForcibly();
            throw new AssertionError(command + " did not end within " + START_LIMIT + ":\n" + Files.readString(output));
        }
        // Without its colours, which Maven may print even to a file, as a reader sees the lines at a terminal.
        String printed = Files.readString(output).replaceAll("\u001B\\[[0-9;]*m", "");
        assertEquals(0, test.exitValue(), command + " failed:\n" + printed);
        steps.get(0).assertShownIn(printed);
    }

    /**
     * The step's Maven command as the test runs it: with the Maven the page names, this build's jars in a local
     * repository of the test's own and the build's local repository read as a remote one, offline if the build is.
     */
    private List<String> maven(DoThisBox.Step step) throws Exception {
        List<String> command = new ArrayList<>(mavenCommand(step));
        command.set(0, mavenOnThePath().orElse(ROOT.resolve("mvnw").toString()));
        command.addAll(1, List.of("-s", settings().toString(), "-Dmaven.repo.local=" + builtArtifacts()));
        if ("offline true".equals(System.getProperty("plantstore.maven.mode"))) {
            command.addAll(1, List.of("-o", "-Daether.offline.protocols=file"));
        }
        return command;
    }

    /**
     * The box's Maven command: its line that starts with {@code mvn }, after the line that changes into the sample's
     * directory, of which the test runs a copy.
     */
    private static List<String> mavenCommand(DoThisBox.Step step) {
        List<String> lines = step.command().lines().toList();
        assertEquals("cd docs/library-sample", lines.get(0), step.command());
        String line = lines.stream().filter(l -> l.startsWith("mvn ")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/library.md's box gives no mvn command: " + step));
        return Arrays.asList(line.replaceFirst("\\s*#.*$", "").split(" +"));
    }

    private static Optional<String> mavenOnThePath() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(directory -> Path.of(directory, "mvn")).filter(Files::isExecutable).map(Path::toString)
                .findFirst();
    }

    /** A local repository that holds this build's parent pom, plantstore-core and plantstore-http, as installed. */
    private Path builtArtifacts() throws Exception {
        String version = System.getProperty("plantstore.version");
        assertTrue(version != null, "the build names its version");
        Path repository = Files.createDirectories(dir.resolve("repository"));
        install(repository, "plantstore-parent", version, ROOT.resolve("pom.xml"), Optional.empty());
        for (String module : List.of("plantstore-core", "plantstore-http")) {
            Path jar = ROOT.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
            assertTrue(Files.isRegularFile(jar), jar + " is built");
            install(repository, module, version, ROOT.resolve(module).resolve("pom.xml"), Optional.of(jar));
        }
        return repository;
    }

    private static void install(Path repository, String artifact, String version, Path pom, Optional<Path> jar)
            throws Exception {
        Path directory = Files.createDirectories(
                repository.resolve("dev/plantstore").resolve(artifact).resolve(version));
        Files.copy(pom, directory.resolve(artifact + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar.isPresent()) {
            Files.copy(jar.get(), directory.resolve(artifact + "-" + version + ".jar"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * The build's local repository as a repository to download from, for releases only: a snapshot of this project
     * there may be another clone's, installed meanwhile.
     */
    private Path settings() throws Exception {
        String outer = Path.of(System.getProperty("plantstore.maven.repository")).toUri().toString();
        String repository = "<id>build-local</id><url>" + outer + "</url>"
                + "<snapshots><enabled>false</enabled></snapshots>";
        return Files.writeString(dir.resolve("settings.xml"), """
                <settings>
                  <profiles>
                    <profile>
                      <id>build-local</id>
                      <repositories><repository>%1$s</repository></repositories>
                      <pluginRepositories><pluginRepository>%1$s</pluginRepository></pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>build-local</activeProfile></activeProfiles>
                </settings>
                """.formatted(repository), StandardCharsets.UTF_8);
    }

    private Path copyOfTheSample() throws Exception {
        Path project = dir.resolve("sample");
        try (Stream<Path> files = Files.walk(SAMPLE)) {
            for (Path file : files.filter(f -> !SAMPLE.relativize(f).startsWith("target")).toList()) {
                Path copy = project.resolve(SAMPLE.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        return project;
    }
}
