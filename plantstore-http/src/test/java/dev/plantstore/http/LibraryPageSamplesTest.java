package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;

/**
 * The library page (docs/library.md) and the files it quotes cannot drift apart: every Java block there is a sample
 * file, word for word, the versions it names are the build's, and its pom.xml is a whole project's.
 */
class LibraryPageSamplesTest {

    private static final Path LIBRARY_PAGE = Path.of("..", "docs", "library.md");
    private static final Path SAMPLES = Path.of("src", "test", "java", "com", "example", "plants");
    /** Runs the samples; it is not one of them. */
    private static final String SAMPLE_RUNNER = "SamplesRunTest.java";
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

    private static final Pattern XML_BLOCK = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL);

    /** The page, with each XML element's line indented by two spaces however deep it is nested. */
    private static String librarySection() throws IOException {
        return Files.readString(LIBRARY_PAGE).replaceAll("\n +<", "\n  <");
    }

    /** The first XML block, as written. */
    private static String minimalPom() throws IOException {
        Matcher block = XML_BLOCK.matcher(Files.readString(LIBRARY_PAGE));
        assertTrue(block.find(), "the library page has no XML block");
        return block.group(1);
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
                "the library page's Java blocks and the files in " + SAMPLES + " differ; copy the files into the page");
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

    @Test
    void thePageStartsFromAWholePomThatCompilesForJava17() throws Exception {
        String pom = minimalPom();
        var document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader(pom)));
        var project = document.getDocumentElement();
        assertEquals("project", project.getTagName());
        for (String element : List.of("modelVersion", "groupId", "artifactId", "version", "dependencies")) {
            assertTrue(project.getElementsByTagName(element).getLength() > 0, element);
        }
        assertEquals("17", project.getElementsByTagName("maven.compiler.release").item(0).getTextContent());
        assertTrue(pom.contains("<artifactId>plantstore-http</artifactId>"), pom);
    }
}
