package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The library page (docs/library.md) and the files it quotes cannot drift apart: every Java block there is a sample
 * file, word for word, the versions it names are the build's, and its pom.xml is the sample project's
 * (docs/library-sample), which LibrarySampleIT builds and runs.
 */
class LibraryPageSamplesTest {

    private static final Path LIBRARY_PAGE = Path.of("..", "docs", "library.md");
    private static final Path SAMPLES = Path.of("src", "test", "java", "com", "example", "plants");
    /** The sample project a reader runs with one command (LibrarySampleIT runs it). */
    private static final Path SAMPLE_PROJECT = Path.of("..", "docs", "library-sample");
    /** Runs the samples; it is not one of them. */
    private static final String SAMPLE_RUNNER = "SamplesRunTest.java";
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

    private static final Pattern XML_BLOCK = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL);
    private static final Pattern TEXT_BLOCK = Pattern.compile("```text\n(.*?)```", Pattern.DOTALL);
    /** A dependency of plantstore-http in the tree: two levels deep, {@code groupId:artifactId:jar:version:scope}. */
    private static final Pattern DIRECT_DEPENDENCY =
            Pattern.compile("^\\|  [+\\\\]- ([^:]+):([^:]+):", Pattern.MULTILINE);

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

    /** Each sample file by its path from the page's folder, as a link on the page names it. */
    private static Map<String, String> sampleFiles() throws IOException {
        var samples = new TreeMap<String, String>();
        try (Stream<Path> files = Stream.concat(Files.list(SAMPLES),
                Files.walk(SAMPLE_PROJECT.resolve("src")).filter(f -> f.toString().endsWith(".java")))) {
            for (Path file : files.filter(f -> !f.getFileName().toString().equals(SAMPLE_RUNNER)).toList()) {
                String fromPage = LIBRARY_PAGE.getParent().toAbsolutePath().normalize()
                        .relativize(file.toAbsolutePath().normalize()).toString();
                samples.put(fromPage, Files.readString(file));
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
    void everyJavaBlockOfTheSectionIsASampleFileAndEverySampleIsQuotedOrLinked() throws IOException {
        String page = librarySection();
        List<String> quoted = new ArrayList<>();
        Matcher block = JAVA_BLOCK.matcher(page);
        while (block.find()) {
            quoted.add(block.group(1));
        }
        Map<String, String> samples = sampleFiles();
        assertTrue(samples.values().containsAll(quoted),
                "a Java block of the library page is none of the files in " + SAMPLES + "; copy the file in");
        assertEquals(quoted.size(), new TreeSet<>(quoted).size(), "a sample is quoted twice");
        for (var sample : samples.entrySet()) {
            assertTrue(quoted.contains(sample.getValue()) || page.contains("](" + sample.getKey() + ")"),
                    sample.getKey() + " is neither quoted nor linked on the library page");
        }
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
    void theOptionalLibrariesItNamesAreAtTheBuildsVersions() throws IOException {
        String section = librarySection();
        for (var library : List.of(List.of("swagger-ui", "swagger-ui.version"),
                List.of("jackson-dataformat-yaml", "jackson.version"),
                List.of("micrometer-registry-prometheus", "micrometer.version"))) {
            String version = pomValue("<" + library.get(1).replace(".", "\\.") + ">([^<]+)<");
            assertTrue(section.contains("<artifactId>" + library.get(0) + "</artifactId>\n  <version>" + version
                    + "</version>"), library.get(0) + " " + version);
        }
    }

    /**
     * The dependency tree the page shows for its minimal pom lists, under plantstore-http, exactly what its pom
     * declares neither optional nor for tests: a library added to plantstore-http without the page is caught here.
     */
    @Test
    void theMinimalPomsTreeHasPlantstoreHttpsMandatoryDependencies() throws Exception {
        Matcher block = TEXT_BLOCK.matcher(Files.readString(LIBRARY_PAGE));
        boolean found = block.find();
        while (found && !block.group(1).startsWith("com.example:plants:")) {
            found = block.find();
        }
        assertTrue(found, "the library page has no dependency tree");
        var listed = new TreeSet<String>();
        Matcher dependency = DIRECT_DEPENDENCY.matcher(block.group(1));
        while (dependency.find()) {
            listed.add(dependency.group(1) + ":" + dependency.group(2));
        }
        var declared = new TreeSet<String>();
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        var dependencies = pom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            var element = (Element) dependencies.item(i);
            if (!childText(element, "scope").equals("test") && !childText(element, "optional").equals("true")) {
                declared.add(childText(element, "groupId") + ":" + childText(element, "artifactId"));
            }
        }
        assertEquals(declared, listed);
    }

    private static String childText(Element element, String name) {
        var children = element.getElementsByTagName(name);
        return children.getLength() == 0 ? "" : children.item(0).getTextContent().strip();
    }

    @Test
    void thePagesPomIsTheSampleProjectsWordForWord() throws IOException {
        assertEquals(Files.readString(SAMPLE_PROJECT.resolve("pom.xml")), minimalPom(),
                "the library page's first XML block and docs/library-sample/pom.xml differ;"
                        + " copy the file into the page");
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
