package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The reference page's base made without a registry: its archives, hundreds of megabytes, stay out of git. */
class ImageBasePageTest {

    private static final Pattern ARCHIVE = Pattern.compile("(?:\\$PWD/)?([\\w./-]+\\.tar)\\b");

    @Test
    void everyArchiveTheBoxWritesIsIgnoredByGit() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "reference.md"));
        String section = page.substring(page.indexOf("**Without a registry**"));
        int start = section.indexOf("```sh") + "```sh".length();
        String box = section.substring(start, section.indexOf("```", start));
        Matcher archives = ARCHIVE.matcher(box);
        List<String> paths = archives.results().map(found -> found.group(1)).distinct().toList();
        assertFalse(paths.isEmpty(), box);
        for (String path : paths) {
            Process check = new ProcessBuilder("git", "check-ignore", "-q", "--no-index", path)
                    .directory(Path.of("..").toFile()).inheritIO().start();
            assertTrue(check.waitFor(30, TimeUnit.SECONDS), "git check-ignore ended");
            assertEquals(0, check.exitValue(), path + " is not ignored by git");
        }
    }
}
