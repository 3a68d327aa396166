package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's commands that run one test class name a module of the build and a test class of that module, so that a
 * newcomer's first try of them runs a test rather than none.
 */
class ReadmeTestCommandsTest {

    private static final Pattern ONE_CLASS_COMMAND = Pattern.compile("(?m)^\\./mvnw .*-pl (\\S+) .*$");
    private static final Pattern TEST_CLASS = Pattern.compile("-D(?:it\\.)?test=(\\w+)");

    @Test
    void eachOneClassCommandNamesAModuleAndOneOfItsTestClasses() throws IOException {
        Matcher command = ONE_CLASS_COMMAND.matcher(Files.readString(ReaderShell.ROOT.resolve("README.md")));
        List<String> faults = new ArrayList<>();
        int commands = 0;
        while (command.find()) {
            commands++;
            Path tests = ReaderShell.ROOT.resolve(command.group(1)).resolve("src/test/java");
            Matcher testClass = TEST_CLASS.matcher(command.group());
            while (testClass.find()) {
                if (!testClass.group(1).equals("NONE") && !hasClass(tests, testClass.group(1))) {
                    faults.add(command.group() + ": " + command.group(1) + " has no test class " + testClass.group(1));
                }
            }
        }
        assertFalse(commands == 0, "README.md shows how to run one test class");
        assertEquals(List.of(), faults);
    }

    private static boolean hasClass(Path tests, String name) throws IOException {
        if (!Files.isDirectory(tests)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(tests)) {
            return files.anyMatch(file -> file.getFileName().toString().equals(name + ".java"));
        }
    }
}
