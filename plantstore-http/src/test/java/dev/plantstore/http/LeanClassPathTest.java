package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.embedder.LeanEmbedder;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that has plantstore-http and an SLF4J backend, and none of the libraries plantstore-http declares
 * optional, serves the API without metrics and documents, by default. {@link LeanEmbedder} runs in a JVM of its own,
 * on this test's class path without their jars: a class of theirs that the API touched with metrics and documents off
 * would stop it with a {@link NoClassDefFoundError}.
 */
class LeanClassPathTest {

    /**
     * The jars of the optional libraries (Micrometer, Swagger UI's webjar, Jackson's YAML and data binding) and of what
     * they bring.
     */
    private static final Pattern OPTIONAL_JAR = Pattern.compile("(micrometer-[a-z-]+|HdrHistogram|LatencyUtils"
            + "|swagger-ui|jackson-dataformat-yaml|snakeyaml|jackson-databind|jackson-annotations)-\\d[^/]*\\.jar");

    private static final String MISSING = "org.webjars:swagger-ui and "
            + "com.fasterxml.jackson.dataformat:jackson-dataformat-yaml and "
            + "com.fasterxml.jackson.core:jackson-databind";

    @Test
    void theApiServesOnAClassPathWithoutTheOptionalLibraries(@TempDir Path output) throws Exception {
        List<String> testClassPath = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> lean = testClassPath.stream()
                .filter(entry -> !OPTIONAL_JAR.matcher(Path.of(entry).getFileName().toString()).matches())
                .toList();
        assertNotEquals(testClassPath.size(), lean.size(), "no optional jar on the test class path: " + testClassPath);

        Path log = output.resolve("embedder.txt");
        Process embedder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, lean), LeanEmbedder.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = embedder.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            embedder.destroyForcibly();
        }
        String printed = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(ended, "the embedder did not end within 60 s:\n" + printed);
        assertEquals(0, embedder.exitValue(), printed);

        List<String> steps = Stream.of(printed.split("\n"))
                .filter(line -> line.matches("(class|webjar|docs on|mounted|standalone)[ :].*"))
                .collect(Collectors.toList());
        assertEquals(List.of(
                "class io.micrometer.core.instrument.MeterRegistry absent",
                "class com.fasterxml.jackson.dataformat.yaml.YAMLMapper absent",
                "class com.fasterxml.jackson.databind.ObjectMapper absent",
                "webjar swagger-ui absent",
                "docs on: refused: Serving the API's documents (/openapi.yaml, /openapi.json, /docs), asked for "
                        + "with withDocs(true), needs " + MISSING + " on the class path, which plantstore-http "
                        + "declares optional: add them to your dependencies, or call withDocs(false)",
                "mounted: create 200 {\"name\":\"Fern\"}",
                "mounted: delete 204",
                "mounted: docs 404",
                "standalone: create 200 {\"name\":\"Fern\"}",
                "standalone: delete 204",
                "standalone: docs 404"), steps, printed);
        String docsOff = "INFO dev.plantstore.http.PlantStoreApi - The API's documents (/openapi.yaml, "
                + "/openapi.json, /docs) are off: they need " + MISSING + " on the class path, which plantstore-http "
                + "declares optional. Add them to your dependencies to serve them, or call withDocs(false) to turn "
                + "them off without this line.";
        assertEquals(2, printed.lines().filter(line -> line.endsWith(docsOff)).count(),
                "one line for the mount, one for the standalone server:\n" + printed);
    }
}
