package dev.plantstore.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The "Do this" box a page of the docs opens with: the fenced blocks under its {@code ## Do this} heading, each
 * {@code sh} block a command and the block after it what the reader should see it print, where {@code …} (or
 * {@code ...}) in a line stands for any text and a line of {@code …} alone for any lines. The tests read the box from
 * the page and run it, so that the page cannot show what the build does not do.
 */
public final class DoThisBox {

    private static final Pattern BLOCK = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```$");
    private static final Pattern ELISION = Pattern.compile("…|\\.\\.\\.");

    private DoThisBox() {
    }

    /** One command of the box and the lines shown after it. */
    public record Step(String command, List<String> shown) {

        /** Whether {@code output} prints each shown line, in their order, other lines between them allowed. */
        public boolean isShownIn(String output) {
            List<String> printed = output.lines().map(line -> line.replace("\r", "")).toList();
            int next = 0;
            for (String line : shown) {
                if (ELISION.matcher(line).replaceAll("").isBlank()) {
                    continue;
                }
                Pattern pattern = Pattern.compile(List.of(ELISION.split(line, -1)).stream().map(Pattern::quote)
                        .collect(Collectors.joining(".*")));
                while (next < printed.size() && !pattern.matcher(printed.get(next)).matches()) {
                    next++;
                }
                if (next == printed.size()) {
                    return false;
                }
                next++;
            }
            return true;
        }

        /** Fails, with the command and what it printed, unless {@link #isShownIn} holds. */
        public void assertShownIn(String output) {
            if (!isShownIn(output)) {
                throw new AssertionError("the page shows\n" + String.join("\n", shown) + "\nafter\n" + command
                        + "\nwhich printed:\n" + output);
            }
        }
    }

    /**
     * The box of {@code page}, with each whole word that is a key of {@code replacements} (a port, say) replaced by
     * its value, in the commands and the lines shown alike.
     */
    public static List<Step> steps(Path page, Map<String, String> replacements) throws IOException {
        return steps(page, "Do this", replacements);
    }

    /** As {@link #steps(Path, Map)}, for the box under the heading {@code ## heading} instead. */
    public static List<Step> steps(Path page, String heading, Map<String, String> replacements) throws IOException {
        String text = Files.readString(page);
        int start = text.indexOf("\n## " + heading + "\n");
        if (start < 0) {
            throw new AssertionError(page + " has no " + heading + " box");
        }
        int end = text.indexOf("\n## ", start + 1);
        String box = text.substring(start, end < 0 ? text.length() : end);
        for (Map.Entry<String, String> replacement : replacements.entrySet()) {
            box = box.replaceAll("\\b" + Pattern.quote(replacement.getKey()) + "\\b",
                    Matcher.quoteReplacement(replacement.getValue()));
        }
        List<Step> steps = new ArrayList<>();
        Matcher block = BLOCK.matcher(box);
        String command = null;
        while (block.find()) {
            if ("sh".equals(block.group(1))) {
                if (command != null) {
                    throw new AssertionError(page + ": each command is followed by its output:\n" + box);
                }
                command = block.group(2);
            } else {
                if (command == null) {
                    throw new AssertionError(page + ": each output follows a command:\n" + box);
                }
                steps.add(new Step(command, block.group(2).lines().toList()));
                command = null;
            }
        }
        if (command != null || steps.isEmpty()) {
            throw new AssertionError(page + ": the box ends with a command's output:\n" + box);
        }
        return steps;
    }
}
