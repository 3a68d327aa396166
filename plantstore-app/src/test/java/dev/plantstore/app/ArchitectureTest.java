package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The structure docs/architecture.md describes, read from the main code's own text as a maintainer reads it: a
 * class uses another when it imports it or, in its own package, names it outside comments and strings.
 */
class ArchitectureTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path PAGE = ROOT.resolve("docs/architecture.md");
    private static final int MOST_LINES = 400;
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?(dev\\.plantstore\\.[\\w.]+);");
    private static final Pattern COMMENT_OR_STRING = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'",
            Pattern.DOTALL);
    private static final Pattern DIAGRAM = Pattern.compile("(?s)```mermaid\\n(.*?)```");
    /** An arrow between two packages, named without {@code dev.plantstore.} and with {@code _} for the dots. */
    private static final Pattern DIAGRAM_EDGE = Pattern.compile("(?m)^\\s*(\\w+)\\s*-->\\s*(\\w+)\\s*$");

    /** A method of an operation named in code: as a string, or as Javalin's or Jetty's constant. */
    private static final Pattern OPERATION_METHOD =
            Pattern.compile("\"(?:POST|DELETE)\"|\\b(?:HandlerType|HttpMethod)\\.(?:POST|DELETE)\\b");

    /** A comparison with one database: the dialect's constant compared or switched on. */
    private static final Pattern DATABASE_COMPARED =
            Pattern.compile("\\bDialect\\.(?:POSTGRESQL|SQLITE)\\b|\\bcase (?:POSTGRESQL|SQLITE)\\b");

    private static final Pattern MDC_LITERAL = Pattern.compile("\\bMDC\\.(?:put|get|remove)\\(\"");

    /** What follows a type's Javadoc: any annotations and modifiers, then the kind of type and its name. */
    private static final Pattern TYPE_AFTER_JAVADOC = Pattern.compile("\\s*(?:@\\w+(?:\\([^)]*\\))?\\s*)*"
            + "(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed) )*"
            + "(?:class|interface|record|enum) (\\w+)");
    private static final int MOST_JAVADOC_LINES = 12;

    private static final Map<String, MainSource> SOURCES = readMainSources();
    private static final Map<String, MainClass> CLASSES = readMainClasses(SOURCES);

    @Test
    void noClassOfMainCodeIsOver400Lines() {
        List<String> over = CLASSES.values().stream().filter(type -> type.lines() > MOST_LINES)
                .map(type -> type.name() + " " + type.lines()).sorted().toList();
        assertEquals(List.of(), over, "classes over " + MOST_LINES + " lines");
    }

    @Test
    void noClassUsesAClassThatUsesItBackWithinAModule() {
        List<String> circles = new ArrayList<>();
        for (Set<String> circle : circles(withinModules(uses()))) {
            circles.add("together: " + String.join(", ", circle));
        }
        assertEquals(List.of(), circles, "classes that use each other, directly or through others");
    }

    /**
     * The server's background threads come from {@code DaemonThreads}, so that each is a named daemon; the shutdown
     * hook's thread is the one other, which the runtime starts. The test kit's servers are not the server's threads.
     */
    @Test
    void theServersThreadsAreMadeByDaemonThreadsAlone() throws IOException {
        List<String> makers = new ArrayList<>();
        for (String module : List.of("core", "sqlite", "http", "webhooks", "kafka", "oidc", "app")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve("plantstore-" + module + "/src/main/java"))) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                    if (Files.readString(file).contains("new Thread(")) {
                        makers.add(file.getFileName().toString());
                    }
                }
            }
        }
        assertEquals(List.of("DaemonThreads.java", "ShutdownHook.java"), makers.stream().sorted().toList());
    }

    /**
     * Which method is which operation is declared in the HTTP module's table of operations alone, so that an operation
     * cannot be routed without the permission, CORS and read-ahead that the table gives it. HttpMetrics names every
     * method HTTP defines, a label's vocabulary and no operation's.
     */
    @Test
    void theHttpModuleNamesAnOperationsMethodOnlyInItsTableOfOperations() throws IOException {
        assertEquals(List.of(), filesMatching(OPERATION_METHOD, "http", Set.of("Operations.java", "HttpMetrics.java")),
                "files of the HTTP module's main code that name POST or DELETE");
        assertEquals(List.of("Operations.java"), filesMatching(OPERATION_METHOD, "http", Set.of("HttpMetrics.java")),
                "the check sees the table's own methods");
    }

    /** Each database's differences are its dialect's: nothing else asks which database it talks to. */
    @Test
    void onlyTheDialectNamesADatabase() throws IOException {
        assertEquals(List.of("Dialect.java"), filesMatching(DATABASE_COMPARED, "core", Set.of()),
                "files of core's main code that compare dialects");
    }

    /** A log field is named once, in the HTTP module's {@code LogFields}, which every writer and reader uses. */
    @Test
    void noLogFieldIsNamedByALiteral() throws IOException {
        List<String> literal = new ArrayList<>();
        for (String module : List.of("core", "sqlite", "http", "webhooks", "oidc", "app")) {
            literal.addAll(filesMatching(MDC_LITERAL, module, Set.of()));
        }
        assertEquals(List.of(), literal, "files that name a log field with a literal");
    }

    private static List<String> filesMatching(Pattern pattern, String module, Set<String> exempt) throws IOException {
        try (Stream<Path> files = Files.walk(ROOT.resolve("plantstore-" + module + "/src/main/java"))) {
            List<String> matching = new ArrayList<>();
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                String name = file.getFileName().toString();
                if (!exempt.contains(name) && pattern.matcher(Files.readString(file)).find()) {
                    matching.add(name);
                }
            }
            return matching;
        }
    }

    /** A type's Javadoc says what it is for and links the page that explains more. */
    @Test
    void noTypesJavadocIsOver12Lines() {
        List<String> over = new ArrayList<>();
        SOURCES.values().forEach(source -> over.addAll(typesWithJavadocOver12Lines(source.text())));
        assertEquals(List.of(), over, "types whose Javadoc is over " + MOST_JAVADOC_LINES + " lines");
    }

    private static List<String> typesWithJavadocOver12Lines(String source) {
        List<String> over = new ArrayList<>();
        for (int start = source.indexOf("/**"); start >= 0; start = source.indexOf("/**", start + 3)) {
            int end = source.indexOf("*/", start);
            Matcher type = TYPE_AFTER_JAVADOC.matcher(source).region(end + 2, source.length());
            long lines = source.substring(start, end).lines().count();
            if (type.lookingAt() && lines > MOST_JAVADOC_LINES) {
                over.add(type.group(1) + " " + lines);
            }
        }
        return over;
    }

    @Test
    void thePagesDiagramHasExactlyThePackagesUsesOfEachOther() throws IOException {
        Matcher diagram = DIAGRAM.matcher(Files.readString(PAGE));
        assertTrue(diagram.find(), "a mermaid diagram in " + PAGE);
        Set<String> drawn = new TreeSet<>();
        Matcher edge = DIAGRAM_EDGE.matcher(diagram.group(1));
        while (edge.find()) {
            drawn.add(edge.group(1).replace('_', '.') + " --> " + edge.group(2).replace('_', '.'));
        }
        Set<String> found = new TreeSet<>();
        uses().forEach((user, used) -> used.stream().map(CLASSES::get)
                .filter(other -> !other.packageName().equals(CLASSES.get(user).packageName()))
                .forEach(other -> found.add(shortName(CLASSES.get(user).packageName()) + " --> "
                        + shortName(other.packageName()))));
        assertEquals(found, drawn, "the diagram's arrows, one per package that uses another");
    }

    @Test
    void theCheckSeesACircleAndAnEdge() {
        Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of());
        assertEquals(List.of(Set.of("a", "b", "c")), circles(graph));
        Set<String> mainUses = CLASSES.get("dev.plantstore.app.Main").uses();
        assertTrue(mainUses.contains("dev.plantstore.app.Options"), "a use within a package: " + mainUses);
        assertTrue(mainUses.contains("dev.plantstore.core.PlantStore"), "an imported use: " + mainUses);
    }

    /** Each class's uses of others within the same module. */
    private static Map<String, Set<String>> uses() {
        Map<String, Set<String>> graph = new TreeMap<>();
        CLASSES.forEach((name, type) -> graph.put(name, type.uses()));
        return graph;
    }

    private static Map<String, Set<String>> withinModules(Map<String, Set<String>> graph) {
        Map<String, Set<String>> within = new TreeMap<>();
        graph.forEach((name, used) -> within.put(name, used.stream()
                .filter(other -> CLASSES.get(other).module().equals(CLASSES.get(name).module()))
                .collect(Collectors.toCollection(TreeSet::new))));
        return within;
    }

    /** The strongly connected groups of more than one class (Tarjan's algorithm, iterative over the call stack). */
    static List<Set<String>> circles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> found = new ArrayList<>();
        for (String start : new TreeSet<>(graph.keySet())) {
            if (!index.containsKey(start)) {
                connect(start, graph, index, low, stack, onStack, found);
            }
        }
        return found;
    }

    private static void connect(String node, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<Set<String>> found) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, low, stack, onStack, found);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> group = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                group.add(member);
            } while (!member.equals(node));
            if (group.size() > 1) {
                found.add(group);
            }
        }
    }

    private static String shortName(String packageName) {
        return packageName.substring("dev.plantstore.".length());
    }

    /** The text of each top-level class of main code, by its name, with its module. */
    private static Map<String, MainSource> readMainSources() {
        Map<String, MainSource> sources = new TreeMap<>();
        try (Stream<Path> modulesDirs = Files.list(ROOT)) {
            for (Path module : modulesDirs.filter(dir -> dir.getFileName().toString().startsWith("plantstore-"))
                    .filter(dir -> Files.isDirectory(dir.resolve("src/main/java"))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                    for (Path file : files.filter(path -> path.toString().endsWith(".java"))
                            .filter(path -> !path.getFileName().toString().contains("-info")).toList()) {
                        String source = Files.readString(file);
                        Matcher packageName = PACKAGE.matcher(source);
                        assertTrue(packageName.find(), "a package in " + file);
                        String name = packageName.group(1) + "." + file.getFileName().toString().replace(".java", "");
                        sources.put(name, new MainSource(module.getFileName().toString(), source));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sources;
    }

    private static Map<String, MainClass> readMainClasses(Map<String, MainSource> sources) {
        Map<String, MainClass> classes = new TreeMap<>();
        sources.forEach((name, source) -> classes.put(name, MainClass.read(name, source.module(), source.text(),
                sources.keySet())));
        return classes;
    }

    /** The text of one top-level class of main code, and its module. */
    private record MainSource(String module, String text) {
    }

    /** One top-level class of main code: its module, its length and the project's classes it uses. */
    record MainClass(String name, String module, int lines, Set<String> uses) {

        String packageName() {
            return name.substring(0, name.lastIndexOf('.'));
        }

        static MainClass read(String name, String module, String source, Set<String> every) {
            String packageName = name.substring(0, name.lastIndexOf('.'));
            Set<String> used = new TreeSet<>();
            Matcher imported = IMPORT.matcher(source);
            while (imported.find()) {
                topLevelClass(imported.group(1), every).ifPresent(used::add);
            }
            String code = COMMENT_OR_STRING.matcher(source).replaceAll(" ").replaceAll("(?m)^import .*$", "");
            for (String other : every) {
                String simpleName = other.substring(other.lastIndexOf('.') + 1);
                if (other.startsWith(packageName + ".") && other.lastIndexOf('.') == packageName.length()
                        && Pattern.compile("\\b" + simpleName + "\\b").matcher(code).find()) {
                    used.add(other);
                }
            }
            used.remove(name);
            return new MainClass(name, module, (int) source.lines().count(), used);
        }

        private static Optional<String> topLevelClass(String imported, Set<String> every) {
            String candidate = imported;
            while (candidate.contains(".")) {
                if (every.contains(candidate)) {
                    return Optional.of(candidate);
                }
                candidate = candidate.substring(0, candidate.lastIndexOf('.'));
            }
            return Optional.empty();
        }
    }
}
