package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The table of steps a reader finds in {@code docs/request-path.md} names the steps {@link Pipeline} installs, in its
 * order, each marked with its audiences, under one heading for each layer.
 */
class PipelineTableTest {

    private static final Path PAGE = Path.of("../docs/request-path.md");
    private static final String FENCE = "```text\n";
    private static final Pattern STEP_LINE = Pattern.compile("^\\s*(\\d+) (\\S+)\\s+([MLSP-]{4})  (.*)$");
    private static final String CONTINUED = " ".repeat(32);
    /** A step named by its number, which no one keeps in step with the list: the page names steps by name. */
    private static final Pattern NUMBERED_REFERENCE = Pattern.compile("\\(\\d{1,2}\\)|\\b\\d{1,2} (?:or \\d{1,2} )?"
            + "(?:may|set|names)\\b");
    private static final Map<Assembly.Audience, Character> MARKS = Map.of(Assembly.Audience.MOUNT, 'M',
            Assembly.Audience.MOUNT_WITH_LIMITS, 'L', Assembly.Audience.STANDALONE, 'S',
            Assembly.Audience.MANAGEMENT_PORT, 'P');

    /** One line of the page's table: a layer's heading, or a step's number, name, marks and words. */
    private record Row(boolean heading, String name, String marks, String words) {
    }

    @Test
    void thePagesTableNamesTheStepsInTheirOrderWithTheirAudiencesUnderALayersHeading() throws IOException {
        List<String> documented = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        Pipeline.Layer layer = null;
        int step = 0;
        for (Pipeline.Step each : Pipeline.STEPS) {
            if (each.layer() != layer) {
                layer = each.layer();
                expected.add("heading");
            }
            expected.add(++step + " " + each.name() + " " + marks(each));
        }
        int number = 0;
        for (Row row : rows()) {
            documented.add(row.heading() ? "heading" : ++number + " " + row.name() + " " + row.marks());
        }
        assertEquals(expected, documented, PAGE + "'s table and Pipeline.STEPS");
    }

    @Test
    void thePageNamesAStepByItsNameNotItsNumber() throws IOException {
        for (Row row : rows()) {
            Matcher numbered = NUMBERED_REFERENCE.matcher(row.words());
            assertTrue(!numbered.find(), row.name() + " refers to a step by number: " + row.words());
        }
    }

    @Test
    void everyStepHasItsOwnName() {
        List<String> names = Pipeline.STEPS.stream().map(Pipeline.Step::name).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), names.toString());
    }

    private static String marks(Pipeline.Step step) {
        var marks = new StringBuilder();
        for (Assembly.Audience audience : Assembly.Audience.values()) {
            marks.append(step.audiences().contains(audience) ? MARKS.get(audience) : '-');
        }
        return marks.toString();
    }

    private static List<Row> rows() throws IOException {
        String page = Files.readString(PAGE);
        int start = page.indexOf(FENCE) + FENCE.length();
        List<Row> rows = new ArrayList<>();
        for (String line : page.substring(start, page.indexOf("```", start)).split("\n")) {
            Matcher step = STEP_LINE.matcher(line);
            if (step.matches()) {
                rows.add(new Row(false, step.group(2), step.group(3), step.group(4)));
            } else if (line.startsWith(CONTINUED)) {
                Row last = rows.remove(rows.size() - 1);
                rows.add(new Row(false, last.name(), last.marks(), last.words() + " " + line.strip()));
            } else {
                rows.add(new Row(true, line.strip(), "", ""));
            }
        }
        return rows;
    }
}
