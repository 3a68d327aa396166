package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library page's sample project (docs/library-sample) runs with the command the page gives, with the Maven the
 * page names ({@code mvn} when on the path, else this clone's wrapper, as the page says), against the jars this build
 * has just made: they are laid out in a local repository of the test's own, beside a copy of the sample, so that
 * neither the source tree nor ~/.m2 changes. Every other library and plugin is taken from the build's own local
 * repository, read as a remote one, and from Maven Central when the build is online.
 */
class LibrarySampleIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SAMPLE = ROOT.resolve("docs/library-sample");
    private static final Pattern LISTENING =
            Pattern.compile("Plant Store API listening on http://127\\.0\\.0\\.1:(\\d+)/plants");
    private static final Pattern TOKEN = Pattern.compile("token \\(PLANTS_TOKEN was not set\\): (\\S+)");
    private static final Duration START_LIMIT = Duration.ofMinutes(4);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void thePagesCommandServesACreateOnThePortAsked() throws Exception {
        List<String> command = new ArrayList<>(pagesCommand());
        command.set(0, mavenOnThePath().orElse(ROOT.resolve("mvnw").toString()));
        Path repository = builtArtifacts();
        command.addAll(1, List.of("-s", settings().toString(), "-Dmaven.repo.local=" + repository));
        if ("offline true".equals(System.getProperty("plantstore.maven.mode"))) {
            command.addAll(1, List.of("-o", "-Daether.offline.protocols=file"));
        }
        Path project = copyOfTheSample();
        Path output = dir.resolve("sample.log");
        var builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().remove("PLANTS_TOKEN");
        builder.environment().put("PLANTS_PORT", "0");
        Process sample = builder.start();
        try {
            Optional<Integer> port = Poll.until(START_LIMIT, Duration.ofMillis(200), () -> {
                String soFar = Files.readString(output);
                Matcher listening = LISTENING.matcher(soFar);
                if (listening.find()) {
                    return Optional.of(Integer.parseInt(listening.group(1)));
                }
                if (!sample.isAlive()) {
                    throw new AssertionError(command + " ended:\n" + soFar);
                }
                return Optional.empty();
            });
            String printed = Files.readString(output);
            assertTrue(port.isPresent(), command + " printed no address within " + START_LIMIT + ":\n" + printed);
            Matcher token = TOKEN.matcher(printed);
            assertTrue(token.find(), "the generated token is printed:\n" + printed);

            URI base = URI.create("http://127.0.0.1:" + port.get() + "/");
            var created = HTTP.send(HttpRequest.newBuilder(base.resolve("/plants"))
                    .header("Authorization", "Bearer " + token.group(1)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\": 1, \"name\": \"Fern\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, created.statusCode(), created.body());
            assertEquals("{\"name\":\"Fern\"}", created.body());
            var own = HTTP.send(HttpRequest.newBuilder(base).build(), HttpResponse.BodyHandlers.ofString());
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

    /** The page's command that runs the sample: the line of a shell block that starts with {@code mvn }. */
    private static List<String> pagesCommand() throws Exception {
        String line = Files.readAllLines(ROOT.resolve("docs/library.md")).stream()
                .filter(l -> l.startsWith("mvn ")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/library.md gives no mvn command"));
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
