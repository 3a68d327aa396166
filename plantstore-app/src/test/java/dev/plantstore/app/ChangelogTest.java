package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * CHANGELOG.md keeps Keep a Changelog's form: an Unreleased section first, then one per release, newest first, each
 * {@code ## [X.Y.Z] - YYYY-MM-DD}, their entries under the form's own kinds of change.
 */
class ChangelogTest {

    private static final Pattern RELEASE = Pattern.compile("## \\[(\\d+)\\.(\\d+)\\.(\\d+)] - (\\d{4}-\\d{2}-\\d{2})");
    private static final Set<String> KINDS = Set.of("### Added", "### Changed", "### Deprecated", "### Removed",
            "### Fixed", "### Security");

    @Test
    void theChangelogHasAnUnreleasedSectionFirstThenTheReleasesNewestFirst() throws IOException {
        assertInForm(Files.readString(Path.of("..", "CHANGELOG.md")));
    }

    @Test
    void aChangelogOutOfFormIsRefused() {
        String released = "# Changelog\n\n## [Unreleased]\n\n## [1.1.0] - 2027-02-01\n\n### Added\n\n- a\n\n"
                + "## [1.0.0] - 2027-01-01\n\n### Added\n\n- b\n";
        assertInForm(released);
        assertInForm(released.replace("## [1.0.0] - 2027-01-01\n", "## [1.0.0] - 2027-01-01\n\nThe first; do this.\n"));
        for (String broken : List.of(
                released.replace("## [Unreleased]\n\n", ""),
                released.replace("## [1.1.0] - 2027-02-01", "## 1.1.0 - 2027-02-01"),
                released.replace("2027-02-01", "2027-02-31"),
                released.replace("2027-02-01", "2026-12-01"),
                released.replace("[1.1.0]", "[0.9.0]"),
                released.replace("### Added\n\n- a", "### New\n\n- a"),
                released.replace("- b", "b"),
                released.replace("- a", "- a\nnot an item"))) {
            assertFalse(inForm(broken), broken);
        }
    }

    private static void assertInForm(String changelog) {
        List<String> problems = problems(changelog);
        assertEquals(List.of(), problems, changelog);
    }

    private static boolean inForm(String changelog) {
        return problems(changelog).isEmpty();
    }

    private static List<String> problems(String changelog) {
        List<String> problems = new ArrayList<>();
        if (!changelog.startsWith("# Changelog\n")) {
            problems.add("the title is not # Changelog");
        }
        List<String> sections = changelog.lines().filter(line -> line.startsWith("## ")).toList();
        if (sections.isEmpty() || !sections.get(0).equals("## [Unreleased]")) {
            problems.add("the first section is not ## [Unreleased]: " + sections);
        }
        LocalDate newer = LocalDate.MAX;
        long[] newerVersion = {Long.MAX_VALUE, 0, 0};
        for (String section : sections.subList(Math.min(1, sections.size()), sections.size())) {
            Matcher release = RELEASE.matcher(section);
            if (!release.matches()) {
                problems.add("not ## [X.Y.Z] - YYYY-MM-DD: " + section);
                continue;
            }
            LocalDate date;
            try {
                date = LocalDate.parse(release.group(4));
            } catch (DateTimeParseException e) {
                problems.add("not a date: " + section);
                continue;
            }
            long[] version = {Long.parseLong(release.group(1)), Long.parseLong(release.group(2)),
                Long.parseLong(release.group(3))};
            if (date.isAfter(newer) || Arrays.compare(version, newerVersion) >= 0) {
                problems.add("not older than the section above it: " + section);
            }
            newer = date;
            newerVersion = version;
        }
        // A section may open with a summary (what to do before upgrading, the commit it was cut from); under a kind
        // of change, each entry is a list item.
        boolean inKind = false;
        for (String line : changelog.lines().toList()) {
            if (line.startsWith("## ")) {
                inKind = false;
            } else if (line.startsWith("### ")) {
                inKind = true;
                if (!KINDS.contains(line)) {
                    problems.add("not one of Keep a Changelog's kinds of change: " + line);
                }
            } else if (inKind && !line.isBlank() && !line.startsWith("- ") && !line.startsWith("  ")) {
                problems.add("an entry is a list item: " + line);
            }
        }
        return problems;
    }
}
