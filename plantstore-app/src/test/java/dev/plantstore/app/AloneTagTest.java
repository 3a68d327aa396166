package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The heavy suites run two classes at a time, except those tagged alone: a class that crashes or stops this machine's
 * PostgreSQL (every other class's database) or fills a disk must carry the tag, or it would break the class beside it.
 */
class AloneTagTest {

    private static final Path TESTS = Path.of("src/test/java/dev/plantstore/app");

    @Test
    void everyClassThatStopsTheSharedPostgresOrFillsADiskRunsAlone() throws IOException {
        Map<Path, String> sources;
        try (Stream<Path> files = Files.list(TESTS)) {
            sources = files.filter(file -> file.getFileName().toString().endsWith("IT.java"))
                    .collect(Collectors.toMap(file -> file, AloneTagTest::read));
        }
        List<Path> holdingGlobalResources = sources.keySet().stream()
                .filter(file -> holdsAGlobalResource(sources.get(file))).sorted().toList();
        assertFalse(holdingGlobalResources.isEmpty(), "no class found that crashes PostgreSQL or fills a disk");
        List<Path> untagged = holdingGlobalResources.stream()
                .filter(file -> !sources.get(file).contains("@Tag(\"alone\")")).toList();
        assertEquals(List.of(), untagged, "they stop the shared PostgreSQL or fill a disk, without @Tag(\"alone\")");
    }

    private static boolean holdsAGlobalResource(String source) {
        return source.contains("\"pg_ctlcluster\"") || source.contains("Tmpfs.mount(");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }
}
