package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build's HTTP/2 run (the surefire execution {@code http2} in this module's pom) takes every test class that
 * reaches the server through {@link TestApi#withServer}, so that a new one cannot run over HTTP/1.1 alone unnoticed.
 */
class Http2RunTest {

    private static final Path POM = Path.of("pom.xml");
    private static final Path TESTS = Path.of("src/test/java/dev/plantstore/http");
    private static final Pattern INCLUDE = Pattern.compile("<include>\\*\\*/(\\w+)\\.java</include>");

    /**
     * Classes that name {@code withServer} and stay out: {@link TestApi}, which defines it, this test, which looks for
     * it, and the contract check's own test, which serves deliberately wrong stand-ins over plain HTTP and calls the
     * real API only to show that the check passes it.
     */
    private static final Set<String> LEFT_OUT = Set.of("TestApi", "Http2RunTest", "ContractCheckTest");

    @Test
    void everyTestClassThatStartsTheServerThroughWithServerRunsOverHttp2Too() throws IOException {
        var reaching = new TreeSet<String>();
        try (Stream<Path> sources = Files.list(TESTS)) {
            for (Path source : (Iterable<Path>) sources::iterator) {
                String name = source.getFileName().toString().replace(".java", "");
                if (Files.readString(source).contains("withServer(") && !LEFT_OUT.contains(name)) {
                    reaching.add(name);
                }
            }
        }
        assertEquals(reaching, http2Includes(), "the http2 execution's includes in " + POM);
    }

    private static Set<String> http2Includes() throws IOException {
        String pom = Files.readString(POM);
        int execution = pom.indexOf("<id>http2</id>");
        String includes = pom.substring(pom.indexOf("<includes>", execution), pom.indexOf("</includes>", execution));
        var names = new TreeSet<String>();
        Matcher include = INCLUDE.matcher(includes);
        while (include.find()) {
            names.add(include.group(1));
        }
        return names;
    }
}
