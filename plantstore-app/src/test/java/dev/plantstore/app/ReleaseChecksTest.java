package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.app.ReleaseChecks.Library;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each of ReleaseChecks' checks on a small release directory, SBOM and image configuration made right, then broken. */
class ReleaseChecksTest {

    /** SHA-256 of "abc" and of nothing, as FIPS 180-2 and sha256sum give them. */
    private static final String ABC_SUM = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    private static final String EMPTY_SUM = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final String RIGHT_SUMS = ABC_SUM + "  abc.jar\n" + EMPTY_SUM + "  empty.json\n";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Library JACKSON = new Library("com.fasterxml.jackson.core", "jackson-core", "2.20.1");
    private static final Library SLF4J = new Library("org.slf4j", "slf4j-api", "2.0.18");
    private static final Map<String, String> LABELS = Map.of("org.opencontainers.image.version", "1.2.3",
            "org.opencontainers.image.revision", "0123456789abcdef0123456789abcdef01234567");

    @TempDir
    Path dist;

    @BeforeEach
    void twoFiles() throws Exception {
        Files.writeString(dist.resolve("abc.jar"), "abc");
        Files.writeString(dist.resolve("empty.json"), "");
    }

    private List<String> sumsFaults(String sums) throws Exception {
        Files.writeString(dist.resolve(ReleaseChecks.SUMS), sums);
        return ReleaseChecks.sumsFaults(dist);
    }

    @Test
    void sumsOfEveryOtherFileOnceAreRightInEitherMode() throws Exception {
        assertEquals(List.of(), sumsFaults(RIGHT_SUMS));
        assertEquals(List.of(), sumsFaults(ABC_SUM + " *abc.jar\n" + EMPTY_SUM + " *empty.json\n"));
    }

    @Test
    void aFileWithoutItsLineIsAFault() throws Exception {
        assertEquals(List.of("SHA256SUMS lists empty.json 0 times, not once"), sumsFaults(ABC_SUM + "  abc.jar\n"));
    }

    @Test
    void aFileListedTwiceIsAFault() throws Exception {
        assertEquals(List.of("SHA256SUMS lists abc.jar 2 times, not once"),
                sumsFaults(RIGHT_SUMS + ABC_SUM + "  abc.jar\n"));
    }

    @Test
    void aWrongSumIsAFault() throws Exception {
        assertEquals(List.of("SHA256SUMS line 2 has a wrong sum for empty.json"),
                sumsFaults(ABC_SUM + "  abc.jar\n" + ABC_SUM + "  empty.json\n"));
    }

    @Test
    void aLineForNoFileOfTheDirectoryIsAFault() throws Exception {
        assertEquals(List.of("SHA256SUMS line 3 names gone.jar, which is no other file of " + dist),
                sumsFaults(RIGHT_SUMS + ABC_SUM + "  gone.jar\n"));
        assertEquals(List.of("SHA256SUMS line 3 names SHA256SUMS, which is no other file of " + dist),
                sumsFaults(RIGHT_SUMS + ABC_SUM + "  SHA256SUMS\n"));
    }

    @Test
    void aLineNotInSha256sumsFormatIsAFault() throws Exception {
        assertEquals(List.of("SHA256SUMS line 1 is not sha256sum's: " + ABC_SUM + " abc.jar",
                "SHA256SUMS lists abc.jar 0 times, not once"),
                sumsFaults(ABC_SUM + " abc.jar\n" + EMPTY_SUM + "  empty.json\n"));
    }

    @Test
    void theDependencyPluginsListIsReadWithAndWithoutModulesAndClassifiers() throws Exception {
        Path list = Files.writeString(dist.resolve("runtime-dependencies.txt"), """

                The following files have been resolved:
                   com.fasterxml.jackson.core:jackson-core:jar:2.20.1:compile -- module com.fasterxml.jackson.core
                   io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.2.7.Final:runtime
                   org.slf4j:slf4j-api:jar:2.0.18:runtime

                """);
        assertEquals(List.of(JACKSON, new Library("io.netty", "netty-transport-native-epoll", "4.2.7.Final"), SLF4J),
                ReleaseChecks.listedDependencies(list));
    }

    @Test
    void anSbomNamingEachLibraryWithALicencePasses() throws Exception {
        JsonNode sbom = JSON.readTree("""
                {"components": [
                  {"group": "com.fasterxml.jackson.core", "name": "jackson-core", "version": "2.20.1",
                   "licenses": [{"license": {"id": "Apache-2.0"}}]},
                  {"group": "org.slf4j", "name": "slf4j-api", "version": "2.0.18",
                   "licenses": [{"expression": "MIT"}]}]}
                """);
        assertEquals(List.of(), ReleaseChecks.sbomFaults(sbom, List.of(JACKSON, SLF4J)));
    }

    @Test
    void aLibraryMissingFromTheSbomOrAtAnotherVersionIsAFault() throws Exception {
        JsonNode sbom = JSON.readTree("""
                {"components": [
                  {"group": "com.fasterxml.jackson.core", "name": "jackson-core", "version": "2.19.0",
                   "licenses": [{"license": {"id": "Apache-2.0"}}]}]}
                """);
        assertEquals(List.of("no component is com.fasterxml.jackson.core:jackson-core:2.20.1",
                "no component is org.slf4j:slf4j-api:2.0.18"), ReleaseChecks.sbomFaults(sbom, List.of(JACKSON, SLF4J)));
    }

    @Test
    void aLibraryWithoutALicenceIsAFault() throws Exception {
        JsonNode sbom = JSON.readTree("""
                {"components": [
                  {"group": "org.slf4j", "name": "slf4j-api", "version": "2.0.18",
                   "licenses": [{"license": {"url": "https://example.invalid/licence"}}]}]}
                """);
        assertEquals(List.of("the component org.slf4j:slf4j-api:2.0.18 has no licence"),
                ReleaseChecks.sbomFaults(sbom, List.of(SLF4J)));
    }

    @Test
    void theImagesSbomMustNameItsBase() throws Exception {
        assertEquals(List.of(), ReleaseChecks.baseImageFaults(JSON.readTree("""
                {"components": [{"type": "container", "name": "eclipse-temurin:17-jre"}]}
                """)));
        assertEquals(List.of("no component of type container names the base image"),
                ReleaseChecks.baseImageFaults(JSON.readTree("""
                        {"metadata": {"component": {"type": "container", "name": "plantstore"}},
                         "components": [{"type": "library", "name": "slf4j-api"}]}
                        """)));
    }

    @Test
    void eachLabelMustBeThereWithItsValue() throws Exception {
        assertEquals(List.of(), ReleaseChecks.labelFaults(JSON.readTree("""
                {"config": {"Labels": {"org.opencontainers.image.version": "1.2.3",
                  "org.opencontainers.image.revision": "0123456789abcdef0123456789abcdef01234567"}}}
                """), LABELS));
        assertEquals(List.of("the image's label org.opencontainers.image.revision is unknown, not "
                        + "0123456789abcdef0123456789abcdef01234567",
                "the image has no label org.opencontainers.image.version"),
                ReleaseChecks.labelFaults(JSON.readTree("""
                        {"config": {"Labels": {"org.opencontainers.image.revision": "unknown"}}}
                        """), LABELS));
    }

    @Test
    void entriesWithTheModesUmask022GivesPass() throws Exception {
        Path jar = zipWithModes("rw-r--r--", "rwxr-xr-x", "rwxr-xr-x");
        assertEquals(List.of(), ReleaseChecks.archiveModeFaults(jar));
    }

    @Test
    void entriesAStricterUmaskLeftAreFaults() throws Exception {
        Path jar = zipWithModes("rw-r-----", "rwxr-x---", "rwxr-x---");
        assertEquals(List.of("modes.jar: dir/ has the mode 750", "modes.jar: dir/file.txt has the mode 640",
                "modes.jar: dir/run.sh has the mode 750"), ReleaseChecks.archiveModeFaults(jar));
    }

    @Test
    void entriesMadeWithoutUnixModesPass() throws Exception {
        Path jar = dist.resolve("plain.jar");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new ZipEntry("file.txt"));
            out.write('x');
            out.closeEntry();
        }
        assertEquals(List.of(), ReleaseChecks.archiveModeFaults(jar));
    }

    /** A zip made on Unix (the JDK's zip file system with POSIX modes) of a directory and two files in it. */
    private Path zipWithModes(String file, String runnable, String directory) throws Exception {
        Path jar = dist.resolve("modes.jar");
        try (FileSystem zip = FileSystems.newFileSystem(jar,
                Map.of("create", "true", "enablePosixFileAttributes", "true"))) {
            Path dir = Files.createDirectory(zip.getPath("/dir"));
            Files.setPosixFilePermissions(Files.writeString(dir.resolve("file.txt"), "plant"),
                    PosixFilePermissions.fromString(file));
            Files.setPosixFilePermissions(Files.writeString(dir.resolve("run.sh"), "true"),
                    PosixFilePermissions.fromString(runnable));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(directory));
        }
        return jar;
    }

    /** nimbus-jose-jwt's packages and gson relocated inside it, as the server's jar ships them. */
    private static final Set<String> SHIPPED = Set.of("com/nimbusds/jose", "com/nimbusds/jose/shaded/gson",
            "com/nimbusds/jose/shaded/gson/stream");
    private static final List<Set<String>> NIMBUS_JAR = List.of(SHIPPED);

    @Test
    void aBundledLibraryNamedAsANestedComponentExplainsItsRelocatedPackages() throws Exception {
        JsonNode sbom = JSON.readTree("""
                {"components": [{"group": "com.nimbusds", "name": "nimbus-jose-jwt", "version": "10.10",
                  "components": [{"group": "com.google.code.gson", "name": "gson", "version": "2.14.0",
                    "evidence": {"occurrences": [{"location": "com/nimbusds/jose/shaded/gson/"}]}}]}]}
                """);
        assertEquals(List.of(), ReleaseChecks.unexplainedPackageFaults(SHIPPED, NIMBUS_JAR, sbom));
    }

    @Test
    void aBundledLibraryDroppedFromTheSbomLeavesItsPackagesUnexplained() throws Exception {
        JsonNode sbom = JSON.readTree("""
                {"components": [{"group": "com.nimbusds", "name": "nimbus-jose-jwt", "version": "10.10"}]}
                """);
        assertEquals(List.of("no component of the SBOM explains the package com/nimbusds/jose/shaded/gson",
                "no component of the SBOM explains the package com/nimbusds/jose/shaded/gson/stream"),
                ReleaseChecks.unexplainedPackageFaults(SHIPPED, NIMBUS_JAR, sbom));
    }

    @Test
    void aPackageOfNoComponentsJarIsUnexplained() throws Exception {
        JsonNode sbom = JSON.readTree("""
                {"components": [{"group": "com.nimbusds", "name": "nimbus-jose-jwt", "version": "10.10",
                  "components": [{"name": "gson", "evidence": {"occurrences": [
                    {"location": "com/nimbusds/jose/shaded/gson"}]}}]}]}
                """);
        Set<String> shipped = new TreeSet<>(SHIPPED);
        shipped.add("org/unknown");
        assertEquals(List.of("no component of the SBOM explains the package org/unknown"),
                ReleaseChecks.unexplainedPackageFaults(shipped, NIMBUS_JAR, sbom));
    }

    private static final String NIMBUS_WITH_GSON = """
            {"group": "com.nimbusds", "name": "nimbus-jose-jwt", "version": "10.10",
              "components": [{"group": "com.google.code.gson", "name": "gson", "version": "2.14.0",
                "licenses": [{"license": {"id": "Apache-2.0"}}], "purl": "pkg:maven/com.google.code.gson/gson@2.14.0",
                "evidence": {"occurrences": [{"location": "com/nimbusds/jose/shaded/gson/"}]}}]}
            """;

    @Test
    void aComponentWhoseNestedLibrariesLocateEveryRelocatedPackageOfItsJarHasNoBundledFault() throws Exception {
        assertEquals(List.of(), ReleaseChecks.bundledLibraryFaults(JSON.readTree(NIMBUS_WITH_GSON), SHIPPED));
    }

    @Test
    void aRelocatedPackageOfAComponentsJarThatNoNestedLibraryLocatesIsABundledFault() throws Exception {
        Set<String> jar = new TreeSet<>(SHIPPED);
        jar.add("com/nimbusds/jose/shaded/jcip");
        assertEquals(List.of("com.nimbusds:nimbus-jose-jwt:10.10 bundles the package com/nimbusds/jose/shaded/jcip,"
                + " which no component nested in it locates"),
                ReleaseChecks.bundledLibraryFaults(JSON.readTree(NIMBUS_WITH_GSON), jar));
    }

    @Test
    void aNestedLibraryWithoutVersionLicenceOrPackageUrlIsABundledFault() throws Exception {
        JsonNode nimbus = JSON.readTree("""
                {"group": "com.nimbusds", "name": "nimbus-jose-jwt", "version": "10.10",
                  "components": [{"group": "com.google.code.gson", "name": "gson",
                    "evidence": {"occurrences": [{"location": "com/nimbusds/jose/shaded/gson/"}]}}]}
                """);
        assertEquals(List.of("com.nimbusds:nimbus-jose-jwt:10.10 bundles com.google.code.gson:gson without a version",
                "com.nimbusds:nimbus-jose-jwt:10.10 bundles com.google.code.gson:gson without a licence",
                "com.nimbusds:nimbus-jose-jwt:10.10 bundles com.google.code.gson:gson without a package URL"),
                ReleaseChecks.bundledLibraryFaults(nimbus, SHIPPED));
    }

    @Test
    void aJarsPackagesFoldInItsMultiReleaseVersions() throws Exception {
        Path jar = dist.resolve("packages.jar");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (String name : List.of("a/b/One.class", "META-INF/versions/11/a/c/Two.class", "a/b/notes.txt",
                    "module-info.class")) {
                out.putNextEntry(new ZipEntry(name));
                out.closeEntry();
            }
        }
        assertEquals(Set.of("a/b", "a/c"), ReleaseChecks.classPackages(jar));
    }
}
