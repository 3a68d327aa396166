package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module's classes use one another one way: no class uses, however indirectly, a class that uses it. A class uses
 * another when its code, outside comments and string literals, names it; the classes share one package, so there are
 * no imports to read.
 */
class ClassCirclesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/plantstore/http");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])'", Pattern.DOTALL);

    @Test
    void noClassUsesAClassThatUsesIt() throws IOException {
        Map<String, String> code = new TreeMap<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = file.getFileName().toString().replace(".java", "");
                if (!name.equals("package-info")) {
                    code.put(name, COMMENTS_AND_STRINGS.matcher(Files.readString(file)).replaceAll(" "));
                }
            }
        }
        Map<String, Set<String>> uses = new TreeMap<>();
        code.forEach((name, text) -> {
            Set<String> used = new TreeSet<>();
            for (String other : code.keySet()) {
                if (!other.equals(name) && Pattern.compile("\\b" + other + "\\b").matcher(text).find()) {
                    used.add(other);
                }
            }
            uses.put(name, used);
        });
        assertEquals(List.of(), circles(uses), "sets of classes that use one another");
    }

    /** Each set of two or more classes that reach one another (Tarjan's strongly connected components). */
    private static List<Set<String>> circles(Map<String, Set<String>> uses) {
        var search = new Object() {
            final Map<String, Integer> index = new HashMap<>();
            final Map<String, Integer> low = new HashMap<>();
            final List<String> stack = new ArrayList<>();
            final Set<String> onStack = new HashSet<>();
            final List<Set<String>> found = new ArrayList<>();

            void visit(String node) {
                index.put(node, index.size());
                low.put(node, index.get(node));
                stack.add(node);
                onStack.add(node);
                for (String next : uses.get(node)) {
                    if (!index.containsKey(next)) {
                        visit(next);
                        low.put(node, Math.min(low.get(node), low.get(next)));
                    } else if (onStack.contains(next)) {
                        low.put(node, Math.min(low.get(node), index.get(next)));
                    }
                }
                if (low.get(node).equals(index.get(node))) {
                    Set<String> component = new TreeSet<>();
                    String member;
                    do {
                        member = stack.remove(stack.size() - 1);
                        onStack.remove(member);
                        component.add(member);
                    } while (!member.equals(node));
                    if (component.size() > 1) {
                        found.add(component);
                    }
                }
            }
        };
        for (String node : uses.keySet()) {
            if (!search.index.containsKey(node)) {
                search.visit(node);
            }
        }
        return search.found;
    }
}
