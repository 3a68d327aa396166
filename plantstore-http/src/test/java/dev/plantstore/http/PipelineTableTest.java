package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table of steps a reader finds in {@code docs/request-path.md} is the list {@link Pipeline} installs. */
class PipelineTableTest {

    private static final Path PAGE = Path.of("../docs/request-path.md");
    private static final String FENCE = "```text\n";

    @Test
    void thePagesTableIsTheListOfSteps() throws IOException {
        String page = Files.readString(PAGE);
        int start = page.indexOf(FENCE) + FENCE.length();
        String documented = page.substring(start, page.indexOf("```", start));
        assertEquals(table(), documented, PAGE + "'s table differs from Pipeline's steps; it should read:\n" + table());
    }

    @Test
    void everyStepHasItsOwnName() {
        List<String> names = Pipeline.STEPS.stream().map(Pipeline.Step::name).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), names.toString());
    }

    /** The page's table, made from {@link Pipeline#STEPS}. */
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
            for (Assembly.Audience audience : Assembly.Audience.values()) {
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
