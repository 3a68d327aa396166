package dev.plantstore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The previous release's artifacts, which the compatibility checks compare this build with: the directory its release
 * build wrote (its target/dist), named by {@value #DIR_VARIABLE}. Without it the checks are skipped, saying why; with
 * {@value #REQUIRED_VARIABLE} set to {@code required} they fail instead. A directory named but not as a release build
 * writes it always fails: that is a mistake, not a missing tool.
 */
public final class PreviousRelease {

    public static final String DIR_VARIABLE = "PLANTSTORE_PREVIOUS_RELEASE_DIR";
    public static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_PREVIOUS_RELEASE";
    private static final String SERVER_MAIN_CLASS = "dev.plantstore.app.Main";

    private final Path dir;

    private PreviousRelease(Path dir) {
        this.dir = dir;
    }

    /** The previous release, or the calling test skipped (failed, when required) as above. */
    public static PreviousRelease require() {
        String named = System.getenv(DIR_VARIABLE);
        if (named == null || named.isBlank()) {
            RequiredTools.skipOrFail("Compatibility check", REQUIRED_VARIABLE,
                    DIR_VARIABLE + " names no previous release's dist directory");
        }
        Path dir = Path.of(named);
        if (!Files.isDirectory(dir)) {
            throw new AssertionError(DIR_VARIABLE + "=" + named + " is not a directory");
        }
        return new PreviousRelease(dir);
    }

    /** {@code artifactId-VERSION.jar}, the library module's classes (not its sources or javadoc). */
    public Path libraryJar(String artifactId) {
        Pattern name = Pattern.compile(Pattern.quote(artifactId) + "-\\d[^/]*(?<!-sources|-javadoc)\\.jar");
        List<Path> found = jars().filter(jar -> name.matcher(jar.getFileName().toString()).matches()).toList();
        if (found.size() != 1) {
            throw new AssertionError(dir + " holds " + found.size() + " jars of " + artifactId + ", not one: " + found);
        }
        return found.get(0);
    }

    /** The server's runnable jar: the one whose manifest starts {@value #SERVER_MAIN_CLASS}. */
    public Path serverJar() {
        List<Path> found = jars().filter(jar -> SERVER_MAIN_CLASS.equals(mainClass(jar).orElse(""))).toList();
        if (found.size() != 1) {
            throw new AssertionError(dir + " holds " + found.size() + " jars starting " + SERVER_MAIN_CLASS
                    + ", not one: " + found);
        }
        return found.get(0);
    }

    private Stream<Path> jars() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<String> mainClass(Path jar) {
        try (var file = new JarFile(jar.toFile())) {
            return Optional.ofNullable(file.getManifest())
                    .map(manifest -> manifest.getMainAttributes().getValue("Main-Class"));
        } catch (IOException e) {
            throw new UncheckedIOException(jar + " cannot be read as a jar", e);
        }
    }
}
