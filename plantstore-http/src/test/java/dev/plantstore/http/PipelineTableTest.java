package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The order a reader finds in {@link Pipeline}'s javadoc is the order its one list installs. */
class PipelineTableTest {

    private static final Path SOURCE = Path.of("src/main/java/dev/plantstore/http/Pipeline.java");

    @Test
    void theJavadocsTableIsTheListOfSteps() throws IOException {
        String source = Files.readString(SOURCE);
        int start = source.indexOf(" * <pre>\n") + " * <pre>\n".length();
        int end = source.indexOf(" * </pre>", start);
        String documented = source.substring(start, end).lines()
                .map(line -> line.length() > 3 ? line.substring(3) : "")
                .collect(Collectors.joining("\n", "", "\n"));
        assertEquals(Pipeline.table(), documented, "Pipeline's javadoc table differs from its steps; it should read:\n"
                + Pipeline.table());
    }

    @Test
    void everyStepHasItsOwnName() {
        List<String> names = Pipeline.STEPS.stream().map(Pipeline.Step::name).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), names.toString());
    }
}
