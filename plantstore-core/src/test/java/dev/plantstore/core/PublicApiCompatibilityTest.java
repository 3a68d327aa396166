package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import japicmp.cmp.JApiCmpArchive;
import japicmp.cmp.JarArchiveComparator;
import japicmp.cmp.JarArchiveComparatorOptions;
import japicmp.config.Options;
import japicmp.model.AccessModifier;
import japicmp.model.JApiClass;
import japicmp.model.JApiCompatibilityChange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check of the library modules' public API that the compatibility profile runs with japicmp's Maven plugin
 * (binary and source compatibility of public and protected members, either breaking the build), run here through
 * japicmp's own library on core's classes: it passes them against themselves, and fails a previous release that had a
 * public method or a public type more.
 */
class PublicApiCompatibilityTest {

    private static final String PLANT_CLASS = "dev/plantstore/core/Plant.class";

    @TempDir
    Path dir;

    @Test
    void theCheckPassesCoreAgainstItself() throws Exception {
        Path current = jar(dir.resolve("current.jar"), Map.of());
        assertEquals(List.of(), incompatibilities(current, current));
    }

    @Test
    void theCheckFailsARemovedPublicMethod() throws Exception {
        Path current = jar(dir.resolve("current.jar"), Map.of());
        Path previous = jar(dir.resolve("previous.jar"), Map.of(PLANT_CLASS, compiledWithMore("Plant",
                "    public String shout() {\n        return name.toUpperCase(java.util.Locale.ROOT);\n    }\n")));
        List<String> found = incompatibilities(previous, current);
        assertTrue(found.contains("dev.plantstore.core.Plant METHOD_REMOVED"), found.toString());
    }

    @Test
    void theCheckFailsARemovedPublicType() throws Exception {
        Path current = jar(dir.resolve("current.jar"), Map.of());
        Path previous = jar(dir.resolve("previous.jar"), Map.of("dev/plantstore/core/Gone.class",
                compiled("Gone", "package dev.plantstore.core;\n\npublic final class Gone {\n}\n")));
        List<String> found = incompatibilities(previous, current);
        assertTrue(found.contains("dev.plantstore.core.Gone CLASS_REMOVED"), found.toString());
    }

    /**
     * Each change that breaks a compiled caller or a caller's source, as {@code class CHANGE}, as the plugin's
     * {@code breakBuildOnBinaryIncompatibleModifications} and {@code breakBuildOnSourceIncompatibleModifications}
     * judge them.
     */
    private static List<String> incompatibilities(Path previous, Path current) {
        Options options = Options.newDefault();
        options.setAccessModifier(AccessModifier.PROTECTED);
        options.setOutputOnlyModifications(true);
        var comparator = new JarArchiveComparator(JarArchiveComparatorOptions.of(options));
        List<String> found = new ArrayList<>();
        for (JApiClass type : comparator.compare(new JApiCmpArchive(previous.toFile(), "previous"),
                new JApiCmpArchive(current.toFile(), "current"))) {
            if (type.isBinaryCompatible() && type.isSourceCompatible()) {
                continue;
            }
            Stream.concat(type.getCompatibilityChanges().stream(),
                    type.getMethods().stream().flatMap(method -> method.getCompatibilityChanges().stream()))
                    .filter(change -> !change.isBinaryCompatible() || !change.isSourceCompatible())
                    .map(JApiCompatibilityChange::getType)
                    .forEach(change -> found.add(type.getFullyQualifiedName() + " " + change));
        }
        return found;
    }

    /** Core's classes as this build compiled them, in a jar, with {@code replaced} entries put in or replaced. */
    private static Path jar(Path jar, Map<String, byte[]> replaced) throws IOException, URISyntaxException {
        Path classes = Path.of(Plant.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (var out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = classes.relativize(file).toString().replace('\\', '/');
                if (!replaced.containsKey(name)) {
                    put(out, name, Files.readAllBytes(file));
                }
            }
            for (Map.Entry<String, byte[]> entry : replaced.entrySet()) {
                put(out, entry.getKey(), entry.getValue());
            }
        }
        return jar;
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    /** Core's source of {@code type} with {@code members} added at its end, compiled against core's classes. */
    private byte[] compiledWithMore(String type, String members) throws IOException, URISyntaxException {
        String source = Files.readString(Path.of("src", "main", "java", "dev", "plantstore", "core", type + ".java"));
        int end = source.lastIndexOf('}');
        return compiled(type, source.substring(0, end) + "\n" + members + "}\n");
    }

    private byte[] compiled(String type, String source) throws IOException, URISyntaxException {
        Path sources = Files.createDirectories(dir.resolve("src").resolve("dev/plantstore/core"));
        Path file = Files.writeString(sources.resolve(type + ".java"), source);
        Path out = Files.createDirectories(dir.resolve("out"));
        Path classes = Path.of(Plant.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        OutputStream silent = OutputStream.nullOutputStream();
        int status = ToolProvider.getSystemJavaCompiler().run(null, silent, System.err, "--release", "17",
                "-cp", classes.toString(), "-d", out.toString(), file.toString());
        assertEquals(0, status, "javac " + file);
        return Files.readAllBytes(out.resolve("dev/plantstore/core").resolve(type + ".class"));
    }
}
