package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the project's Markdown pages leads somewhere: its file exists, and its {@code #anchor}, if
 * any, is a heading of the page it names, spelt as GitHub makes anchors of headings. Text in code blocks and code
 * spans is not a link.
 */
class MarkdownLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern FENCED = Pattern.compile("(?ms)^```.*?^```$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\n]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} +(.+?) *$");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<Path> pages = pages();
        assertTrue(pages.contains(ROOT.resolve("README.md")) && pages.contains(ROOT.resolve("docs/running.md")),
                "the pages are found: " + pages);
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            Matcher link = LINK.matcher(CODE_SPAN.matcher(prose(page)).replaceAll(""));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue;
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && !anchors(linked).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertTrue(links > 50, "links were found: " + links);
        assertEquals(List.of(), broken);
    }

    @Test
    void anchorsAreSpeltAsGitHubSpellsThem() {
        assertEquals(Set.of("keys-and-the-providers-outages", "webhooks-need-plantstore-webhooks", "a-b",
                        "a-b-1"),
                anchorsOf("## Keys and the provider's outages\n### Webhooks need `plantstore-webhooks`\n"
                        + "# A, b\n# A b\n"));
    }

    /** The tracked Markdown pages: every {@code .md} outside build output and hidden directories. */
    private static List<Path> pages() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> Stream.of(ROOT.relativize(file).toString().split("[/\\\\]"))
                            .noneMatch(part -> part.equals("target") || part.startsWith(".")))
                    .sorted().toList();
        }
    }

    /** The page without its fenced blocks, whose lines are code, not headings or links. */
    private static String prose(Path page) {
        try {
            return FENCED.matcher(Files.readString(page)).replaceAll("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> anchors(Path page) {
        return page.toString().endsWith(".md") ? anchorsOf(prose(page)) : Set.of();
    }

    /**
     * GitHub's anchors: the heading's text in lower case, without what is neither a letter, a digit, a space, a
     * hyphen nor an underscore, spaces made hyphens; a repeated one gets {@code -1}, {@code -2}, ...
     */
    private static Set<String> anchorsOf(String prose) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher heading = HEADING.matcher(prose);
        while (heading.find()) {
            String anchor = heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int times = seen.merge(anchor, 1, Integer::sum);
            anchors.add(times == 1 ? anchor : anchor + "-" + (times - 1));
        }
        return anchors;
    }
}
