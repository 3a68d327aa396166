package dev.plantstore.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What the files of a release directory (target/dist) must say about each other. Each check returns what is wrong,
 * one line a fault, so that ReleaseArtifactsIT says every fault of a release at once and ReleaseChecksTest shows each
 * check seeing a break.
 */
final class ReleaseChecks {

    static final String SUMS = "SHA256SUMS";
    /** sha256sum's line: the sum, a space, a space (text mode) or an asterisk (binary mode), the file's name. */
    private static final Pattern SUM_LINE = Pattern.compile("([0-9a-f]{64}) [ *]([^/]+)");
    /** maven-dependency-plugin's list: group:artifact:type[:classifier]:version:scope, then the module, if any. */
    private static final Pattern LISTED_DEPENDENCY =
            Pattern.compile("\\s+([^:\\s]+):([^:\\s]+):[^:\\s]+(?::[^:\\s]+)?:([^:\\s]+):[a-z]+(?: .*)?");

    /** A package that a library's build moved a bundled library's classes into. */
    private static final Pattern RELOCATED = Pattern.compile("(^|/)shaded(/|$)");
    private static final int ZIP_END_SIGNATURE = 0x06054b50;
    private static final int ZIP_END_LENGTH = 22;
    private static final int ZIP_ENTRY_LENGTH = 46;

    private ReleaseChecks() {
    }

    /** A library as a Maven repository and an SBOM name it. */
    record Library(String group, String name, String version) {

        @Override
        public String toString() {
            return group + ":" + name + ":" + version;
        }
    }

    /** SHA256SUMS lists every other file of {@code dir} once, each with its right sum, and nothing else. */
    static List<String> sumsFaults(Path dir) throws IOException {
        List<String> faults = new ArrayList<>();
        Map<String, Integer> timesListed = new TreeMap<>();
        List<String> lines = Files.readAllLines(dir.resolve(SUMS));
        for (int number = 1; number <= lines.size(); number++) {
            Matcher line = SUM_LINE.matcher(lines.get(number - 1));
            if (!line.matches()) {
                faults.add(SUMS + " line " + number + " is not sha256sum's: " + lines.get(number - 1));
                continue;
            }
            String name = line.group(2);
            timesListed.merge(name, 1, Integer::sum);
            Path file = dir.resolve(name);
            if (name.equals(SUMS) || !Files.isRegularFile(file)) {
                faults.add(SUMS + " line " + number + " names " + name + ", which is no other file of " + dir);
            } else if (!sha256(file).equals(line.group(1))) {
                faults.add(SUMS + " line " + number + " has a wrong sum for " + name);
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(Files::isRegularFile).map(file -> file.getFileName().toString())
                    .filter(name -> !name.equals(SUMS)).sorted()
                    .forEach(name -> {
                        int times = timesListed.getOrDefault(name, 0);
                        if (times != 1) {
                            faults.add(SUMS + " lists " + name + " " + times + " times, not once");
                        }
                    });
        }
        return faults;
    }

    /** The libraries in a list maven-dependency-plugin's goal list wrote. */
    static List<Library> listedDependencies(Path list) throws IOException {
        return Files.readAllLines(list).stream().map(LISTED_DEPENDENCY::matcher).filter(Matcher::matches)
                .map(line -> new Library(line.group(1), line.group(2), line.group(3)))
                .toList();
    }

    /** The SBOM has a component with each library's group, name and version, and a licence for it. */
    static List<String> sbomFaults(JsonNode sbom, List<Library> libraries) {
        List<String> faults = new ArrayList<>();
        for (Library library : libraries) {
            List<JsonNode> components = elements(sbom.path("components"))
                    .filter(component -> library.equals(new Library(component.path("group").asText(),
                            component.path("name").asText(), component.path("version").asText())))
                    .toList();
            if (components.isEmpty()) {
                faults.add("no component is " + library);
            } else if (components.stream().noneMatch(ReleaseChecks::hasLicence)) {
                faults.add("the component " + library + " has no licence");
            }
        }
        return faults;
    }

    /** The image's SBOM has its base image as a component, which names it. */
    static List<String> baseImageFaults(JsonNode imageSbom) {
        boolean named = elements(imageSbom.path("components")).anyMatch(component ->
                component.path("type").asText().equals("container") && !component.path("name").asText().isBlank());
        return named ? List.of() : List.of("no component of type container names the base image");
    }

    /** The image's configuration (config.json of a docker-archive) carries each label with its value. */
    static List<String> labelFaults(JsonNode imageConfig, Map<String, String> expected) {
        JsonNode labels = imageConfig.path("config").path("Labels");
        List<String> faults = new ArrayList<>();
        new TreeMap<>(expected).forEach((label, value) -> {
            if (!labels.has(label)) {
                faults.add("the image has no label " + label);
            } else if (!labels.get(label).asText().equals(value)) {
                faults.add("the image's label " + label + " is " + labels.get(label).asText() + ", not " + value);
            }
        });
        return faults;
    }

    /**
     * Every entry of the zip {@code jar} made on Unix has the mode a umask of 022 gives, whatever the builder's was:
     * 644 for a file (755 if its owner may run it), 755 for a directory (its name ends with a slash). The mode is
     * read where a zip keeps it, in the central directory's record of the entry (the upper half of its external
     * attributes).
     */
    static List<String> archiveModeFaults(Path jar) throws IOException {
        ByteBuffer zip = ByteBuffer.wrap(Files.readAllBytes(jar)).order(ByteOrder.LITTLE_ENDIAN);
        int end = zip.limit() - ZIP_END_LENGTH;
        while (end >= 0 && zip.getInt(end) != ZIP_END_SIGNATURE) {
            end--;
        }
        if (end < 0) {
            return List.of(jar.getFileName() + " is no zip");
        }
        List<String> faults = new ArrayList<>();
        int at = zip.getInt(end + 16);
        for (int entry = Short.toUnsignedInt(zip.getShort(end + 10)); entry > 0; entry--) {
            int nameLength = Short.toUnsignedInt(zip.getShort(at + 28));
            String name = new String(zip.array(), at + ZIP_ENTRY_LENGTH, nameLength, StandardCharsets.UTF_8);
            boolean madeOnUnix = Short.toUnsignedInt(zip.getShort(at + 4)) >>> 8 == 3;
            int permissions = zip.getInt(at + 38) >>> 16 & 07777;
            Set<Integer> normal = name.endsWith("/") ? Set.of(0755) : Set.of(0644, 0755);
            if (madeOnUnix && !normal.contains(permissions)) {
                faults.add(jar.getFileName() + ": " + name + " has the mode " + Integer.toOctalString(permissions));
            }
            at += ZIP_ENTRY_LENGTH + nameLength + Short.toUnsignedInt(zip.getShort(at + 30))
                    + Short.toUnsignedInt(zip.getShort(at + 32));
        }
        return faults;
    }

    /** The class packages of a jar, as paths (com/example/util); a multi-release jar's versions folded in. */
    static Set<String> classPackages(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return packagesOf(zip.stream().map(ZipEntry::getName));
        }
    }

    /** The class packages under a directory of classes, as {@link #classPackages} gives a jar's. */
    static Set<String> classPackagesUnder(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return packagesOf(files.filter(Files::isRegularFile)
                    .map(file -> classes.relativize(file).toString().replace(File.separatorChar, '/')));
        }
    }

    private static Set<String> packagesOf(Stream<String> entries) {
        return entries.filter(name -> name.endsWith(".class"))
                .map(name -> name.replaceFirst("^META-INF/versions/\\d+/", ""))
                .filter(name -> name.contains("/")).map(name -> name.substring(0, name.lastIndexOf('/')))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Each package of {@code shipped} that no component of the SBOM explains. A package is explained by a component
     * whose jar holds it ({@code componentPackages}); a relocated one (a segment named {@code shaded}: a library
     * bundled inside another's jar) only by a nested component that gives it, or a package above it, as the location
     * of its evidence.
     */
    static List<String> unexplainedPackageFaults(Set<String> shipped, Collection<Set<String>> componentPackages,
            JsonNode sbom) {
        List<String> nestedLocations = new ArrayList<>();
        elements(sbom.path("components")).forEach(component -> collectNestedLocations(component, nestedLocations));
        List<String> faults = new ArrayList<>();
        for (String pkg : new TreeSet<>(shipped)) {
            boolean explained = RELOCATED.matcher(pkg).find()
                    ? nestedLocations.stream().anyMatch(location -> (pkg + "/").startsWith(location))
                    : componentPackages.stream().anyMatch(packages -> packages.contains(pkg));
            if (!explained) {
                faults.add("no component of the SBOM explains the package " + pkg);
            }
        }
        return faults;
    }

    /**
     * What the SBOM's {@code component}, whose jar holds {@code jarPackages}, fails to say of the libraries its jar
     * bundles: a relocated package of the jar that none of its nested components locates, and a nested component
     * without a version, a licence or a package URL.
     */
    static List<String> bundledLibraryFaults(JsonNode component, Set<String> jarPackages) {
        String named = component.path("group").asText() + ":" + component.path("name").asText() + ":"
                + component.path("version").asText();
        List<String> faults = new ArrayList<>();
        for (JsonNode nested : component.path("components")) {
            String library = nested.path("group").asText() + ":" + nested.path("name").asText();
            if (nested.path("version").asText().isBlank()) {
                faults.add(named + " bundles " + library + " without a version");
            }
            if (!hasLicence(nested)) {
                faults.add(named + " bundles " + library + " without a licence");
            }
            if (nested.path("purl").asText().isBlank()) {
                faults.add(named + " bundles " + library + " without a package URL");
            }
        }
        List<String> locations = new ArrayList<>();
        collectNestedLocations(component, locations);
        for (String pkg : new TreeSet<>(jarPackages)) {
            boolean located = locations.stream().anyMatch(location -> (pkg + "/").startsWith(location));
            if (RELOCATED.matcher(pkg).find() && !located) {
                faults.add(named + " bundles the package " + pkg + ", which no component nested in it locates");
            }
        }
        return faults;
    }

    private static void collectNestedLocations(JsonNode component, List<String> locations) {
        for (JsonNode nested : component.path("components")) {
            for (JsonNode occurrence : nested.path("evidence").path("occurrences")) {
                String location = occurrence.path("location").asText();
                if (!location.isBlank()) {
                    locations.add(location.endsWith("/") ? location : location + "/");
                }
            }
            collectNestedLocations(nested, locations);
        }
    }

    /** An SPDX id, a licence's name or an SPDX expression: what a scanner needs to know the terms. */
    private static boolean hasLicence(JsonNode component) {
        return elements(component.path("licenses")).anyMatch(choice -> !choice.path("expression").asText().isBlank()
                || !choice.path("license").path("id").asText().isBlank()
                || !choice.path("license").path("name").asText().isBlank());
    }

    private static Stream<JsonNode> elements(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
