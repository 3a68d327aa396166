package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.app.ReleaseChecks.Library;
import dev.plantstore.testkit.RequiredTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release directory, as {@code ./mvnw -B -DskipTests -Prelease package} writes it (target/dist), built from this
 * checkout's commit and named by {@value #DIR_VARIABLE}: its sums, its SBOMs against the libraries this build
 * resolves (each module's target/runtime-dependencies.txt), the image's labels and the server's version line. Without
 * the variable the test is skipped, saying why; with {@value #REQUIRED_VARIABLE} set to {@code required} (as
 * {@code .ci/run} sets it) it fails instead.
 */
class ReleaseArtifactsIT {

    static final String DIR_VARIABLE = "PLANTSTORE_TEST_RELEASE_DIR";
    static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_RELEASE";
    private static final String OCI = "org.opencontainers.image.";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The checkout's root, where each module's directory is named as its artifact. */
    private static final Path CHECKOUT = Path.of("..");
    private static final String DEPENDENCY_LIST = "target/runtime-dependencies.txt";

    private final String version = System.getProperty("plantstore.version");
    private Path dist;

    @TempDir
    Path work;

    @BeforeEach
    void releaseDirectory() {
        String named = System.getenv(DIR_VARIABLE);
        if (named == null || named.isBlank()) {
            RequiredTools.skipOrFail("Release test", REQUIRED_VARIABLE,
                    DIR_VARIABLE + " names no release directory (a release build's target/dist)");
        }
        dist = Path.of(named);
        assertTrue(Files.isDirectory(dist), DIR_VARIABLE + "=" + named + " is not a directory");
    }

    @Test
    void sha256sumsListsEveryOtherFileOnceWithItsSum() throws Exception {
        assertEquals(List.of(), ReleaseChecks.sumsFaults(dist));
    }

    @Test
    void everyJarsEntriesHaveTheModesOfUmask022WhateverTheBuildersWas() throws Exception {
        List<String> faults = new ArrayList<>();
        try (Stream<Path> files = Files.list(dist)) {
            for (Path jar : files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                faults.addAll(ReleaseChecks.archiveModeFaults(jar));
            }
        }
        assertEquals(List.of(), faults);
    }

    @Test
    void theServersSbomNamesEveryLibraryItBundles() throws Exception {
        assertEquals(List.of(), ReleaseChecks.sbomFaults(sbom("plantstore"), serverLibraries()));
    }

    @Test
    void theServersSbomExplainsEveryPackageItsJarShips() throws Exception {
        JsonNode sbom = sbom("plantstore");
        List<Set<String>> componentPackages = new ArrayList<>();
        componentPackages.add(ReleaseChecks.classPackagesUnder(Path.of("target/classes")));
        for (JsonNode component : sbom.path("components")) {
            Path jar = componentJar(component);
            if (Files.isRegularFile(jar)) {
                componentPackages.add(ReleaseChecks.classPackages(jar));
            }
        }
        Set<String> shipped = ReleaseChecks.classPackages(dist.resolve("plantstore-" + version + ".jar"));
        assertEquals(List.of(), ReleaseChecks.unexplainedPackageFaults(shipped, componentPackages, sbom));
    }

    @Test
    void eachLibrarysSbomNamesItsRuntimeDependencies() throws Exception {
        List<String> libraries = libraryModules();
        assertFalse(libraries.isEmpty(), dist + " holds no library's pom");
        List<String> faults = new ArrayList<>();
        for (String library : libraries) {
            List<Library> dependencies = ReleaseChecks.listedDependencies(
                    dependencyList(CHECKOUT.resolve(library).resolve(DEPENDENCY_LIST)));
            ReleaseChecks.sbomFaults(sbom(library), dependencies).forEach(fault -> faults.add(library + ": " + fault));
        }
        assertEquals(List.of(), faults);
    }

    @Test
    void theServersAndEachLibrarysSbomNameWhatTheirComponentsBundleWithVersionAndLicence() throws Exception {
        List<String> artifacts = new ArrayList<>(libraryModules());
        artifacts.add("plantstore");
        List<String> faults = new ArrayList<>();
        int jarsRead = 0;
        for (String artifact : artifacts) {
            for (JsonNode component : sbom(artifact).path("components")) {
                Path jar = componentJar(component);
                if (Files.isRegularFile(jar)) {
                    jarsRead++;
                    ReleaseChecks.bundledLibraryFaults(component, ReleaseChecks.classPackages(jar))
                            .forEach(fault -> faults.add(artifact + ": " + fault));
                }
            }
        }
        assertTrue(jarsRead > 0, "no component's jar is in " + System.getProperty("plantstore.maven.repository"));
        assertEquals(List.of(), faults);
    }

    @Test
    void theImagesSbomNamesTheServersLibrariesAndTheBase() throws Exception {
        JsonNode sbom = sbom("plantstore-image");
        assertEquals(List.of(), ReleaseChecks.sbomFaults(sbom, serverLibraries()));
        assertEquals(List.of(), ReleaseChecks.baseImageFaults(sbom));
    }

    @Test
    void theImageCarriesTheOciLabels() throws Exception {
        Path archive = dist.resolve("plantstore-image-" + version + ".tar");
        String config = JSON.readTree(output("tar", "-xOf", archive.toString(), "manifest.json"))
                .path(0).path("Config").asText();
        JsonNode imageConfig = JSON.readTree(output("tar", "-xOf", archive.toString(), config));
        assertEquals(List.of(), ReleaseChecks.labelFaults(imageConfig, Map.of(
                OCI + "version", version,
                OCI + "revision", output("git", "-C", CHECKOUT.toString(), "rev-parse", "HEAD").strip(),
                OCI + "source", System.getProperty("plantstore.scm.url"),
                OCI + "licenses", "MIT",
                OCI + "created", System.getProperty("plantstore.outputTimestamp"))));
    }

    @Test
    void theServerJarSaysItsVersionAndCommit() throws Exception {
        String commit = output("git", "-C", CHECKOUT.toString(), "rev-parse", "--short=7", "HEAD").strip();
        var completed = RunningJar.runJarToCompletion(dist.resolve("plantstore-" + version + ".jar"), work,
                "--version");
        assertEquals(0, completed.exitCode(), completed.stderr());
        assertEquals("plantstore " + version + " (commit " + commit + ")\n", completed.stdout());
    }

    /** Where a component's jar is: the release's for this project's libraries, the local repository's for others. */
    private Path componentJar(JsonNode component) {
        String group = component.path("group").asText();
        String name = component.path("name").asText();
        String componentVersion = component.path("version").asText();
        if (group.equals("dev.plantstore")) {
            return dist.resolve(name + "-" + componentVersion + ".jar");
        }
        return Path.of(System.getProperty("plantstore.maven.repository"), group.split("\\."))
                .resolve(name).resolve(componentVersion).resolve(name + "-" + componentVersion + ".jar");
    }

    /** The SBOM the release holds for {@code artifact}, the server's under the name its jar has. */
    private JsonNode sbom(String artifact) throws IOException {
        return JSON.readTree(dist.resolve(artifact + "-" + version + "-cyclonedx.json").toFile());
    }

    /** What the server's jar bundles and its image's /app/libs holds: the server module's runtime dependencies. */
    private static List<Library> serverLibraries() throws IOException {
        List<Library> libraries = ReleaseChecks.listedDependencies(dependencyList(Path.of(DEPENDENCY_LIST)));
        assertFalse(libraries.isEmpty(), DEPENDENCY_LIST + " lists no library");
        return libraries;
    }

    private static Path dependencyList(Path list) {
        assertTrue(Files.isRegularFile(list), list + " is missing: the build writes it at pre-integration-test");
        return list;
    }

    /** The library modules, by the poms the release holds beside their jars: all but the parent's. */
    private List<String> libraryModules() throws IOException {
        Pattern pom = Pattern.compile("(plantstore-.+)-" + Pattern.quote(version) + "\\.pom");
        try (Stream<Path> files = Files.list(dist)) {
            return files.map(file -> pom.matcher(file.getFileName().toString())).filter(Matcher::matches)
                    .map(name -> name.group(1)).filter(artifact -> !artifact.equals("plantstore-parent"))
                    .sorted().toList();
        }
    }

    /** What {@code command} prints on its standard output, having ended well within a minute. */
    private static String output(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(1, TimeUnit.MINUTES), String.join(" ", command) + " ends");
        assertEquals(0, process.exitValue(), String.join(" ", command) + " failed");
        return printed;
    }
}
