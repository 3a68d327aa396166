package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's "Use it as a library" section and the files it quotes cannot drift apart: every Java block there is a
 * sample file, word for word, and the versions it names are the build's.
 */
class ReadmeLibrarySamplesTest {

    private static final Path README = Path.of("..", "README.md");
    private static final Path SAMPLES = Path.of("src", "test", "java", "com", "example", "plants");
    /** Runs the samples; it is not one of them. */
    private static final String SAMPLE_RUNNER = "SamplesRunTest.java";
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

    private static String librarySection() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("\n## Use it as a library\n");
        assertTrue(start >= 0, "README has no 'Use it as a library' section");
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static Set<String> sampleFiles() throws IOException {
        var samples = new TreeSet<String>();
        try (Stream<Path> files = Files.list(SAMPLES)) {
            for (Path file : files.filter(f -> !f.getFileName().toString().equals(SAMPLE_RUNNER)).toList()) {
                samples.add(Files.readString(file));
            }
        }
        return samples;
    }

    private static String pomValue(String regex) throws IOException {
        Matcher matcher = Pattern.compile(regex).matcher(Files.readString(Path.of("..", "pom.xml")));
        assertTrue(matcher.find(), regex);
        return matcher.group(1);
    }

    @Test
    void everyJavaBlockOfTheSectionIsASampleFileAndEverySampleIsQuoted() throws IOException {
        List<String> quoted = new ArrayList<>();
        Matcher block = JAVA_BLOCK.matcher(librarySection());
        while (block.find()) {
            quoted.add(block.group(1));
        }
        assertEquals(sampleFiles(), new TreeSet<>(quoted),
                "the README's Java blocks and the files in " + SAMPLES + " differ; copy the files into the README");
        assertEquals(quoted.size(), new TreeSet<>(quoted).size(), "a sample is quoted twice");
    }

    @Test
    void theDependencyBlocksNameTheBuildsVersions() throws IOException {
        String section = librarySection();
        String version = pomValue("<artifactId>plantstore-parent</artifactId>\\s*<version>([^<]+)</version>");
        for (String module : List.of("plantstore-http", "plantstore-core")) {
            assertTrue(section.contains("<groupId>dev.plantstore</groupId>\n  <artifactId>" + module
                    + "</artifactId>\n  <version>" + version + "</version>"), module + " " + version);
        }
        String slf4j = pomValue("<slf4j.version>([^<]+)</slf4j.version>");
        assertTrue(section.contains("<artifactId>slf4j-simple</artifactId>\n  <version>" + slf4j + "</version>"),
                "slf4j-simple " + slf4j);
    }
}
