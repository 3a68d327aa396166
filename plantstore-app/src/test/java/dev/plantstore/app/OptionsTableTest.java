package dev.plantstore.app;

import static dev.plantstore.app.OptionsTest.everyValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Each option is declared once; its variable, its place in --help and its default follow from the declaration. */
class OptionsTableTest {

    @Test
    void everyOptionFallsBackToTheVariableNamedAfterItsFlag() {
        for (Option<?> option : Options.TABLE) {
            assertEquals("PLANTSTORE_" + option.flag().substring(2).toUpperCase().replace('-', '_'),
                    option.variable(), option.flag());
        }
    }

    @Test
    void theEnvironmentIsReadForTheTableAndItsSecretsAndNothingElse() throws UsageException {
        var looked = new TreeSet<String>();
        Map<String, String> env = new HashMap<>() {
            @Override
            public String get(Object key) {
                looked.add((String) key);
                return super.get(key);
            }
        };
        Options.parse(List.of(), env);
        assertEquals(Options.TABLE.stream().map(Option::variable)
                .collect(Collectors.toCollection(TreeSet::new)), looked);
        looked.clear();
        Options.secrets(env);
        assertEquals(Set.of("PLANTSTORE_TOKENS", "PLANTSTORE_DB_USER", "PLANTSTORE_DB_PASSWORD",
                "PLANTSTORE_WEBHOOK_SECRET", "PLANTSTORE_WEBHOOK_SIGNING_KEY"), looked);
    }

    @Test
    void helpListsEveryFlagWithItsVariableAndDefault() {
        for (Option<?> option : Options.TABLE) {
            // A flag too long for its column has its help on the next line.
            String flag = Pattern.quote(option.flag() + " " + option.valueName());
            assertTrue(Options.USAGE.matches("(?s).*\n  " + flag + "\\s.*"),
                    option.flag());
            String source = option.shownDefault().isEmpty() ? option.variable() + ")"
                    : option.variable() + ", default " + option.shownDefault() + ")";
            assertTrue(Options.USAGE.replaceAll("\\s+", " ").contains(source), source + " in\n" + Options.USAGE);
        }
        for (Secret secret : Options.SECRETS) {
            assertTrue(Options.USAGE.matches("(?s).*\n  " + Pattern.quote(secret.variable()) + "\\s.*"),
                    secret.variable());
        }
        for (Action action : Action.values()) {
            assertTrue(Options.USAGE.matches("(?s).*\n  " + Pattern.quote(String.join(", ", action.flags()))
                    + " +" + Pattern.quote(action.help()) + "\n.*"), action.flags() + " in\n" + Options.USAGE);
        }
    }

    @Test
    void theReferencePageListsEveryOptionWithItsVariableAndDefault() throws IOException {
        List<String> rows = Files.readString(Path.of("..", "docs", "reference.md")).lines()
                .filter(line -> line.startsWith("| `-")).toList();
        for (Option<?> option : Options.TABLE) {
            String row = rows.stream().filter(line -> line.startsWith("| `" + option.flag() + " ")).findFirst()
                    .orElseThrow(() -> new AssertionError(option.flag() + " is not in docs/reference.md"));
            String shown = option.shownDefault().isEmpty() ? "none" : option.shownDefault();
            assertTrue(row.contains("| `" + option.variable() + "` | ")
                    && (row.contains(" | `" + shown + "` | ") || row.contains(" | " + shown + " | ")), row);
        }
        for (Action action : Action.values()) {
            String flags = action.flags().stream().map(flag -> "`" + flag + "`").collect(Collectors.joining(", "));
            assertTrue(rows.stream().anyMatch(line -> line.startsWith("| " + flags + " | | | ")),
                    action.flags() + " is not in docs/reference.md");
        }
        String page = Files.readString(Path.of("..", "docs", "reference.md"));
        for (Secret secret : Options.SECRETS) {
            assertTrue(page.contains("`" + secret.variable() + "`"), secret.variable());
        }
    }

    @Test
    void helpFitsA120ColumnTerminal() {
        Options.USAGE.lines().forEach(line -> assertTrue(line.length() <= 120, line));
    }

    @Test
    void aDefaultGivenAsAFlagChangesNothing() throws UsageException {
        Options defaults = Options.parse(List.of(), Map.of());
        for (Option<?> option : Options.TABLE) {
            if (option.shownDefault().isEmpty() || option.shownDefault().equals("none")
                    || option.shownDefault().equals("off")) {
                continue;
            }
            assertEquals(everyValue(defaults),
                    everyValue(Options.parse(List.of(option.flag(), option.shownDefault()), Map.of())), option.flag());
        }
    }

    @Test
    void helpShowsTheDefaultsTheServerUses() throws UsageException {
        assertEquals(everyValue(Options.parse(List.of(), Map.of())),
                everyValue(Options.parse(List.of("--help"), Map.of("PLANTSTORE_PORT", "9000"))));
    }

    @Test
    void secretsNeverShowTheirValues() {
        var secrets = Options.secrets(Map.of("PLANTSTORE_TOKENS", "hunter2", "PLANTSTORE_DB_PASSWORD", "hunter3",
                "PLANTSTORE_WEBHOOK_SECRET", "whsec_hunter4"));
        assertEquals(Optional.of("whsec_hunter4"), secrets.webhookSecret());
        assertEquals(Optional.of("hunter2"), secrets.tokens());
        assertFalse(secrets.toString().contains("hunter"), secrets.toString());
    }

    /** Configuration comes from the environment through {@link Options} alone; {@link Main} hands it the map. */
    @Test
    void onlyMainReadsTheEnvironment() throws IOException {
        try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
            List<String> readers = sources.filter(Files::isRegularFile)
                    .filter(file -> read(file).contains("System.getenv"))
                    .map(file -> file.getFileName().toString())
                    .toList();
            assertEquals(List.of("Main.java"), readers);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
