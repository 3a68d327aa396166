import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * Adds to each CycloneDX SBOM in a directory the libraries a component's jar bundles relocated under a {@code shaded}
 * package (gson in nimbus-jose-jwt, SCRAM in the PostgreSQL driver, FastDoubleParser in jackson-core, ...), which the
 * CycloneDX plugin does not see: each becomes a nested component with group, name, version, licence, package URL and
 * its packages as evidence. They are read from the Maven metadata or pgjdbc's licences directory the jar keeps, else
 * from {@link #WITHOUT_METADATA}, per version of the bundling jar; a relocated package neither explains fails the
 * build. Run by the release build: {@code java -cp CLASSPATH BundledLibraries.java DIRECTORY}.
 */
final class BundledLibraries {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Pattern MAVEN_METADATA = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
    private static final Pattern LICENCES_DIRECTORY = Pattern.compile("META-INF/licenses/([^/]+)/([^/]+)-([^-/]+)/.*");
    private static final Pattern POM_LICENCE_NAME = Pattern.compile("(?s)<license>\\s*<name>\\s*([^<]+?)\\s*</name>");
    /** A package that a library's build moved a bundled library's classes into: a segment named {@code shaded}. */
    private static final Pattern RELOCATED = Pattern.compile("(^|/)shaded(/|$)");

    /**
     * The libraries jars bundle relocated without saying so in the jar, each with the version the bundling library's
     * own build gives it at that library's version.
     */
    private static final List<Declared> WITHOUT_METADATA = List.of(
            // opentelemetry-java v1.63.0, dependencyManagement/build.gradle.kts; sdk/trace-shaded-deps relocates it.
            new Declared("io.opentelemetry:opentelemetry-sdk-trace:1.63.0", "org.jctools", "jctools-core", "4.0.6",
                    "Apache-2.0", "io/opentelemetry/sdk/trace/internal/shaded/jctools"),
            // Its two classes are copied from weak-lock-free's commit ad0e5e0, which after the release 0.18 changed
            // only the pom's version.
            new Declared("io.opentelemetry:opentelemetry-context:1.63.0", "com.blogspot.mydailyjava",
                    "weak-lock-free", "0.18", "Apache-2.0", "io/opentelemetry/context/internal/shaded"),
            // The version of the dependency the shade plugin relocates, in the pom.xml inside each jar.
            new Declared("com.fasterxml.jackson.core:jackson-core:2.22.4", "ch.randelshofer", "fastdoubleparser",
                    "2.0.1", "MIT", "com/fasterxml/jackson/core/internal/shaded/fdp"),
            new Declared("tools.jackson.core:jackson-core:3.2.1", "ch.randelshofer", "fastdoubleparser", "2.0.1",
                    "MIT", "tools/jackson/core/internal/shaded/fdp"),
            // client_java v1.4.2's pom.xml, protobuf-java.version, which also names the package.
            new Declared("io.prometheus:prometheus-metrics-exposition-formats:1.4.2", "com.google.protobuf",
                    "protobuf-java", "4.33.0", "BSD-3-Clause",
                    "io/prometheus/metrics/shaded/com_google_protobuf_4_33_0"),
            // Kafka's gradle/dependencies.gradle of October 2024 gives protobuf 3.25.5 and opentelemetry-proto
            // 1.0.0-alpha (4.1.1's was not to be read); 4.1.1's jar holds the protocol of 1.0.0: its Span lacks the
            // flags field that the protocol's 1.1.0 added.
            new Declared("org.apache.kafka:kafka-clients:4.1.1", "com.google.protobuf", "protobuf-java", "3.25.5",
                    "BSD-3-Clause", "org/apache/kafka/shaded/com/google/protobuf"),
            new Declared("org.apache.kafka:kafka-clients:4.1.1", "io.opentelemetry.proto", "opentelemetry-proto",
                    "1.0.0-alpha", "Apache-2.0", "org/apache/kafka/shaded/io/opentelemetry/proto"));

    private BundledLibraries() {
    }

    /** A library bundled inside a jar, and the relocated packages that hold it. */
    record Bundled(String group, String name, String version, ObjectNode licence, List<String> packages) {
    }

    /**
     * A library that the jar of {@code bundler} (group:name:version) holds under {@code relocatedTo}, with its SPDX
     * licence id.
     */
    record Declared(String bundler, String group, String name, String version, String licence, String relocatedTo) {

        boolean holds(String pkg) {
            return pkg.equals(relocatedTo) || pkg.startsWith(relocatedTo + "/");
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: BundledLibraries DIRECTORY");
        }
        Path directory = Path.of(args[0]);
        if (!Files.isDirectory(directory)) {
            return;
        }
        List<Path> sboms;
        try (Stream<Path> files = Files.list(directory)) {
            sboms = files.filter(file -> file.getFileName().toString().endsWith("-cyclonedx.json")).sorted().toList();
        }
        List<Path> jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar")).map(Path::of).toList();
        for (Path sbom : sboms) {
            ObjectNode document = (ObjectNode) JSON.readTree(sbom.toFile());
            for (JsonNode component : document.path("components")) {
                String group = component.path("group").asText();
                String name = component.path("name").asText();
                String version = component.path("version").asText();
                String suffix = "/" + group.replace('.', '/') + "/" + name + "/" + version + "/" + name + "-" + version
                        + ".jar";
                for (Path jar : jars) {
                    if (jar.toString().replace(File.separatorChar, '/').endsWith(suffix)) {
                        nest((ObjectNode) component, bundledIn(jar, group, name, version));
                    }
                }
            }
            Files.writeString(sbom, JSON.writeValueAsString(document) + "\n", StandardCharsets.UTF_8);
        }
    }

    private static void nest(ObjectNode component, List<Bundled> bundled) {
        if (bundled.isEmpty()) {
            return;
        }
        ArrayNode nested = component.putArray("components");
        for (Bundled library : bundled) {
            ObjectNode inner = nested.addObject();
            inner.put("type", "library");
            inner.put("group", library.group());
            inner.put("name", library.name());
            inner.put("version", library.version());
            inner.putArray("licenses").add(library.licence());
            inner.put("purl", "pkg:maven/" + library.group() + "/" + library.name() + "@" + library.version());
            ArrayNode occurrences = inner.putObject("evidence").putArray("occurrences");
            library.packages().forEach(location -> occurrences.addObject().put("location", location + "/"));
        }
    }

    /**
     * The libraries {@code jar} (the library {@code group:name:version}) holds, each with its relocated packages: those
     * it says it holds, then those {@link #WITHOUT_METADATA} names for it.
     */
    static List<Bundled> bundledIn(Path jar, String group, String name, String version) throws IOException {
        List<Bundled> bundled = new ArrayList<>();
        List<String> relocated;
        try (JarFile file = new JarFile(jar.toFile())) {
            relocated = file.stream().map(ZipEntry::getName).filter(entry -> entry.endsWith(".class"))
                    .map(entry -> entry.replaceFirst("^META-INF/versions/\\d+/", ""))
                    .filter(entry -> entry.contains("/")).map(entry -> entry.substring(0, entry.lastIndexOf('/')))
                    .filter(pkg -> RELOCATED.matcher(pkg).find()).distinct().sorted().toList();
            TreeSet<String> seen = new TreeSet<>();
            for (ZipEntry entry : file.stream().sorted((a, b) -> a.getName().compareTo(b.getName())).toList()) {
                Matcher metadata = MAVEN_METADATA.matcher(entry.getName());
                Matcher licences = LICENCES_DIRECTORY.matcher(entry.getName());
                if (metadata.matches() && !(metadata.group(1).equals(group) && metadata.group(2).equals(name))) {
                    Properties properties = new Properties();
                    properties.load(new StringReader(read(file, entry)));
                    ZipEntry pom = file.getEntry(entry.getName().replace("pom.properties", "pom.xml"));
                    Matcher licence = POM_LICENCE_NAME.matcher(pom == null ? "" : read(file, pom));
                    if (!licence.find()) {
                        throw new IllegalStateException(jar + ": " + entry.getName() + " names no licence");
                    }
                    String bundledName = properties.getProperty("artifactId");
                    bundled.add(new Bundled(properties.getProperty("groupId"), bundledName,
                            properties.getProperty("version"), licenceNamed(licence.group(1)),
                            packagesOf(jar, bundledName, relocated)));
                } else if (licences.matches() && !entry.isDirectory() && seen.add(licences.group(2))) {
                    bundled.add(new Bundled(licences.group(1), licences.group(2), licences.group(3),
                            licenceOfText(jar, entry, read(file, entry)),
                            packagesOf(jar, licences.group(2), relocated)));
                }
            }
        }
        String coordinates = group + ":" + name + ":" + version;
        for (Declared library : WITHOUT_METADATA) {
            if (library.bundler().equals(coordinates)) {
                List<String> packages = relocated.stream().filter(library::holds).toList();
                if (packages.isEmpty()) {
                    throw new IllegalStateException(jar + " has no package " + library.relocatedTo() + " to hold "
                            + library.name() + ", as BundledLibraries' table says");
                }
                ObjectNode licence = JSON.createObjectNode();
                licence.putObject("license").put("id", library.licence());
                bundled.add(new Bundled(library.group(), library.name(), library.version(), licence, packages));
            }
        }
        List<String> unexplained = relocated.stream()
                .filter(pkg -> bundled.stream().noneMatch(library -> library.packages().contains(pkg))).toList();
        if (!unexplained.isEmpty()) {
            throw new IllegalStateException(jar + " holds the relocated packages " + unexplained + ", which neither"
                    + " the jar nor BundledLibraries' table for " + coordinates + " names a library of: add to the"
                    + " table what this version of it bundles, with the version its build gives");
        }
        return bundled;
    }

    /**
     * The relocated packages of a bundled library: those whose part after {@code shaded/} has the library's name as
     * consecutive segments (scram-client in com/ongres/scram/client), or else the name's first word (jcip for
     * jcip-annotations).
     */
    private static List<String> packagesOf(Path jar, String name, List<String> relocated) {
        for (String words : List.of(name.replace('-', '/'), name.split("-")[0])) {
            Pattern segments = Pattern.compile("(^|/)" + Pattern.quote(words) + "(/|$)");
            List<String> packages = relocated.stream()
                    .filter(pkg -> segments.matcher(afterShaded(pkg)).find()).toList();
            if (!packages.isEmpty()) {
                return packages;
            }
        }
        throw new IllegalStateException(jar + " says it bundles " + name + ", but no relocated package is named so");
    }

    private static String afterShaded(String pkg) {
        Matcher shaded = RELOCATED.matcher(pkg);
        shaded.find();
        return pkg.substring(shaded.end());
    }

    private static ObjectNode licenceNamed(String name) {
        ObjectNode choice = JSON.createObjectNode();
        choice.putObject("license").put("name", name);
        return choice;
    }

    /** The SPDX id of a licence text pgjdbc ships; a text of another licence fails the build, to be told here. */
    private static ObjectNode licenceOfText(Path jar, ZipEntry entry, String text) {
        String flat = text.replaceAll("\\s+", " ");
        String id;
        if (flat.contains("Redistribution and use in source and binary forms")) {
            id = flat.contains("Neither the name") ? "BSD-3-Clause" : "BSD-2-Clause";
        } else if (flat.contains("Apache License") && flat.contains("Version 2.0")) {
            id = "Apache-2.0";
        } else if (flat.contains("Permission is hereby granted, free of charge")) {
            id = "MIT";
        } else {
            throw new IllegalStateException(jar + ": the licence in " + entry.getName() + " is none this tells");
        }
        ObjectNode choice = JSON.createObjectNode();
        choice.putObject("license").put("id", id);
        return choice;
    }

    private static String read(JarFile file, ZipEntry entry) throws IOException {
        try (InputStream in = file.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
