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
 * Adds to each CycloneDX SBOM in a directory the libraries that a component's jar bundles inside itself, relocated
 * under a package named {@code shaded}: nimbus-jose-jwt holds gson and jcip-annotations, the PostgreSQL driver OnGres'
 * SCRAM and stringprep libraries. The CycloneDX Maven plugin lists the jars a build resolves, not what is inside them.
 * Each bundled library becomes a nested component (the {@code components} of the component whose jar holds it) with
 * its group, name, version, licence and package URL, and its relocated packages as evidence of where it is.
 *
 * <p>What a jar bundles is read from the jar: the Maven metadata a shaded library leaves
 * ({@code META-INF/maven/GROUP/NAME/pom.properties} beside the jar's own, its licence from the {@code pom.xml} there)
 * and pgjdbc's licences directory ({@code META-INF/licenses/GROUP/NAME-VERSION/}, its licence told from the text).
 *
 * <p>Run by the release build as a single-file program, with the module's dependencies and Jackson on the class path:
 * {@code java -cp CLASSPATH BundledLibraries.java DIRECTORY}.
 */
final class BundledLibraries {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Pattern MAVEN_METADATA = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
    private static final Pattern LICENCES_DIRECTORY = Pattern.compile("META-INF/licenses/([^/]+)/([^/]+)-([^-/]+)/.*");
    private static final Pattern POM_LICENCE_NAME = Pattern.compile("(?s)<license>\\s*<name>\\s*([^<]+?)\\s*</name>");

    private BundledLibraries() {
    }

    /** A library bundled inside a jar, and the relocated packages that hold it. */
    record Bundled(String group, String name, String version, ObjectNode licence, List<String> packages) {
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
                        nest((ObjectNode) component, bundledIn(jar, group, name));
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

    /** The libraries {@code jar} (the library {@code group:name}) says it holds, each with its relocated packages. */
    static List<Bundled> bundledIn(Path jar, String group, String name) throws IOException {
        List<Bundled> bundled = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            List<String> relocated = file.stream().map(ZipEntry::getName).filter(entry -> entry.endsWith(".class"))
                    .map(entry -> entry.replaceFirst("^META-INF/versions/\\d+/", "")).filter(entry -> entry.contains("/"))
                    .map(entry -> entry.substring(0, entry.lastIndexOf('/')))
                    .filter(pkg -> pkg.contains("/shaded/")).distinct().sorted().toList();
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
                    .filter(pkg -> segments.matcher(pkg.substring(pkg.indexOf("/shaded/") + 8)).find()).toList();
            if (!packages.isEmpty()) {
                return packages;
            }
        }
        throw new IllegalStateException(jar + " says it bundles " + name + ", but no relocated package is named so");
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
