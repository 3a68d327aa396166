package dev.plantstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class RequiredToolsTest {

    /** Never set: these tests skip rather than fail. */
    private static final String UNSET_VARIABLE = "PLANTSTORE_TEST_NEVER_SET";

    @TempDir
    Path dir;

    private Path program(String name, boolean executable) throws Exception {
        return Files.createFile(dir.resolve(name), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString(executable ? "rwx------" : "rw-------")));
    }

    /** Why {@link RequiredTools#require} skips a test that needs {@code packagesByProgram}. */
    private static String skipReason(Map<Path, String> packagesByProgram) {
        return assertThrows(TestAbortedException.class,
                () -> RequiredTools.require("Reason test", UNSET_VARIABLE, packagesByProgram)).getMessage();
    }

    @Test
    void theSkipNamesOnlyTheProgramThatIsMissingAndItsPackage() throws Exception {
        Path browser = program("browser", true);
        Path driver = dir.resolve("driver");
        assertEquals("Assumption failed: " + driver + " (Debian package driver-package) is missing",
                skipReason(Map.of(browser, "browser-package", driver, "driver-package")));
    }

    @Test
    void theSkipNamesEveryMissingProgram() throws Exception {
        Path browser = program("browser", false);
        Path driver = dir.resolve("driver");
        assertEquals("Assumption failed: " + browser + " (Debian package browser-package) and " + driver
                + " (Debian package driver-package) are missing",
                skipReason(Map.of(browser, "browser-package", driver, "driver-package")));
    }

    @Test
    void aGroupIsAnnouncedAsSkippedOnce() throws Exception {
        Path missing = dir.resolve("missing");
        var err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            for (int call = 0; call < 3; call++) {
                assertThrows(TestAbortedException.class,
                        () -> RequiredTools.require("Once test", UNSET_VARIABLE, Map.of(missing, "missing-package")));
            }
        } finally {
            System.setErr(original);
        }
        assertEquals("Once test skipped: " + missing + " (Debian package missing-package) is missing\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void nothingHappensWhenEveryProgramIsThere() throws Exception {
        RequiredTools.require("Present test", UNSET_VARIABLE, Map.of(program("present", true), "present-package"));
    }
}
