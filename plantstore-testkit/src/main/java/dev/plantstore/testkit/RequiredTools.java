package dev.plantstore.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * The Debian programs a group of tests drives. Where one is missing the group is skipped, and the test JVM says once
 * which programs and packages are missing; with the group's variable set to {@code required} (as {@code .ci/run}
 * sets it) a missing program fails the test instead.
 */
public final class RequiredTools {

    private static final Set<String> SKIPS_REPORTED = ConcurrentHashMap.newKeySet();

    private RequiredTools() {
    }

    /**
     * Passes when every program in {@code packagesByProgram} is executable; otherwise skips or fails the calling
     * test as above.
     *
     * @param group             what is skipped, for the skip line: "Browser test"
     * @param requiredVariable  the environment variable that makes the group required
     * @param packagesByProgram each program's path and the Debian package that installs it
     */
    public static void require(String group, String requiredVariable, Map<Path, String> packagesByProgram) {
        String missing = packagesByProgram.entrySet().stream()
                .filter(program -> !Files.isExecutable(program.getKey()))
                .map(program -> program.getKey() + " (Debian package " + program.getValue() + ")")
                .sorted()
                .collect(Collectors.joining(" and "));
        if (missing.isEmpty()) {
            return;
        }
        skipOrFail(group, requiredVariable, missing + (missing.contains(" and ") ? " are" : " is") + " missing");
    }

    /**
     * Skips the calling test for {@code reason}, said once for the group on standard error too; with
     * {@code requiredVariable} set to {@code required}, fails it instead.
     */
    public static void skipOrFail(String group, String requiredVariable, String reason) {
        if ("required".equals(System.getenv(requiredVariable))) {
            throw new AssertionError(requiredVariable + "=required but " + reason);
        }
        if (SKIPS_REPORTED.add(group)) {
            System.err.println(group + " skipped: " + reason);
        }
        Assumptions.assumeTrue(false, reason);
    }
}
