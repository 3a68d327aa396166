package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages name a release by what a clone of the repository has: the README's release check, run in a fresh clone up
 * to its checkout, lands on the commit releases/1.0.0/COMMIT names with that release's sums beside it, and no page
 * names a tag the clone does not have. The build and the sums' check that follow are run by {@code .ci/run}, word for
 * word, on the previous release.
 */
class ReleaseNamesTest {

    private static final Path ROOT = ReaderShell.ROOT;
    private static final Path RELEASE = ROOT.resolve("releases/1.0.0");
    private static final Pattern SH_BLOCK = Pattern.compile("(?ms)^```sh\\n(.*?)^```$");
    /** A tag of this project's, as a page would name it; not one inside another project's address. */
    private static final Pattern TAG = Pattern.compile("(?<![/\\w.-])v\\d+\\.\\d+\\.\\d+\\b");

    @TempDir
    Path dir;

    @Test
    void theReadmesReleaseCheckChecksOutTheReleasesCommitInAFreshClone() throws Exception {
        List<String> box = verifyingBox();
        int checkout = indexOfLineWith(box, "git checkout");
        String untilCheckout = String.join("\n", box.subList(0, checkout + 1))
                .replace("REPOSITORY", ROOT.toString());
        Process shell = new ProcessBuilder("bash", "-euo", "pipefail", "-c", untilCheckout).directory(dir.toFile())
                .redirectErrorStream(true).start();
        String printed = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(shell.waitFor(2, TimeUnit.MINUTES), "the box's clone and checkout end");
        assertEquals(0, shell.exitValue(), untilCheckout + "\nprinted:\n" + printed);
        Path clone = dir.resolve("plantstore");
        assertEquals(Files.readString(RELEASE.resolve("COMMIT")).strip(), git(clone, "rev-parse", "HEAD"));
        assertEquals(Files.readString(RELEASE.resolve("SHA256SUMS")),
                Files.readString(clone.resolve("release-SHA256SUMS")));
    }

    @Test
    void noPageNamesATagTheRepositoryDoesNotHave() throws Exception {
        Path clone = dir.resolve("clone");
        git(dir, "clone", "-q", ROOT.toString(), clone.toString());
        List<String> tags = git(clone, "tag", "--list").lines().toList();
        List<String> faults = new ArrayList<>();
        for (Path page : pages()) {
            Matcher tag = TAG.matcher(Files.readString(page));
            while (tag.find()) {
                if (!tags.contains(tag.group())) {
                    faults.add(ROOT.relativize(page) + " names the tag " + tag.group() + ", which a clone has not");
                }
            }
        }
        assertEquals(List.of(), faults);
    }

    /** The lines of the README's first command box under "Verifying a release". */
    private static List<String> verifyingBox() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int section = readme.indexOf("\n## Verifying a release\n");
        assertTrue(section >= 0, "README.md has a section Verifying a release");
        Matcher box = SH_BLOCK.matcher(readme);
        assertTrue(box.find(section), "the section has a command box");
        return box.group(1).lines().toList();
    }

    private static int indexOfLineWith(List<String> lines, String text) {
        for (int index = 0; index < lines.size(); index++) {
            if (lines.get(index).contains(text)) {
                return index;
            }
        }
        throw new AssertionError("no line has " + text + ": " + lines);
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** What git prints, stripped, having ended well and within a minute. */
    private static String git(Path directory, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", directory.toString()));
        command.addAll(List.of(arguments));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(git.waitFor(1, TimeUnit.MINUTES), command + " ends");
        assertEquals(0, git.exitValue(), command + " printed:\n" + printed);
        return printed.strip();
    }
}
