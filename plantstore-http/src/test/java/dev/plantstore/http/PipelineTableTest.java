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
        assertEquals(table(), documented, "Pipeline's javadoc table differs from its steps; it should read:\n"
                + table());
    }

    @Test
    void everyStepHasItsOwnName() {
        List<String> names = Pipeline.STEPS.stream().map(Pipeline.Step::name).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), names.toString());
    }

    /** The table of the class's javadoc, made from {@link Pipeline#STEPS}. */
    private static String table() {
        var table = new StringBuilder();
        Pipeline.Layer layer = null;
        int number = 0;
        for (Pipeline.Step step : Pipeline.STEPS) {
            if (step.layer() != layer) {
                layer = step.layer();
                table.append(' ').append(layer.heading).append('\n');
            }
            var marks = new StringBuilder();
            for (Pipeline.Audience audience : Pipeline.Audience.values()) {
                marks.append(step.audiences().contains(audience) ? audience.mark : '-');
            }
            String first = "%4d %-20s %s  ".formatted(++number, step.name(), marks);
            table.append(wrapped(first, step.does(), 115)).append('\n');
        }
        return table.toString();
    }

    /** {@code words} after {@code first}, wrapped at {@code width} with each further line indented under them. */
    private static String wrapped(String first, String words, int width) {
        var text = new StringBuilder(first);
        int lineStart = 0;
        for (String word : words.split(" ")) {
            if (text.length() - lineStart + 1 + word.length() > width && text.length() - lineStart > first.length()) {
                text.append('\n');
                lineStart = text.length();
                text.append(" ".repeat(first.length()));
            } else if (text.length() - lineStart > first.length()) {
                text.append(' ');
            }
            text.append(word);
        }
        return text.toString();
    }
}
