package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The pages stay short enough to read, and each guide starts with what to do. */
class PagesTest {

    private static final Path DOCS = ReaderShell.ROOT.resolve("docs");
    /** The words of every page together, counted as {@code cat docs/*.md | wc -w} counts them. */
    private static final int MOST_WORDS = 14_000;
    private static final int COMMAND_WITHIN_LINES = 30;

    private static List<Path> pages() throws IOException {
        try (Stream<Path> files = Files.list(DOCS)) {
            return files.filter(file -> file.toString().endsWith(".md")).sorted().toList();
        }
    }

    @Test
    void thePagesHoldFewerThan14000Words() throws IOException {
        long words = 0;
        for (Path page : pages()) {
            String text = Files.readString(page).strip();
            words += text.isEmpty() ? 0 : text.split("\\s+").length;
        }
        assertTrue(words < MOST_WORDS, "docs/*.md hold " + words + " words");
    }

    @Test
    void everyPageButTheReferenceShowsACommandInItsFirst30Lines() throws IOException {
        List<String> without = new ArrayList<>();
        for (Path page : pages()) {
            List<String> opening = Files.readAllLines(page).stream().limit(COMMAND_WITHIN_LINES).toList();
            if (!page.getFileName().toString().equals("reference.md") && !opening.contains("```sh")) {
                without.add(page.getFileName().toString());
            }
        }
        assertEquals(List.of(), without, "pages without a command in their first " + COMMAND_WITHIN_LINES + " lines");
    }
}
