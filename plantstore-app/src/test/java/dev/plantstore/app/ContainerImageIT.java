package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.testkit.KafkaBroker;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.RequiredTools;
import dev.plantstore.testkit.Sockets;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image, built with the one command docs/running.md gives ({@code ./mvnw -B -DskipTests -Pimage
 * package}) in a copy of the sources as a fresh clone has them, loaded into Debian's podman and run as the page shows.
 * No image registry can be reached here, so the base is made from Debian's packages (mmdebstrap, then podman import
 * and save) and named by PLANTSTORE_IMAGE_BASE, as the page tells a user without a registry; it is kept in the
 * temporary directory for later runs, since making it takes a minute or more. Skipped, saying so, without podman and
 * mmdebstrap; {@code .ci/run} installs them and sets {@value #REQUIRED_VARIABLE}, so under CI the test runs or fails.
 *
 * <p>Podman runs here with {@code --runtime runc --cgroup-manager cgroupfs} and explicit limits ({@code --ulimit
 * nofile=... --ulimit nproc=...}): its default limits are above what this machine lets the runtime set.
 */
@Tag("heavy")
class ContainerImageIT {

    static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_IMAGE";

    private static final List<String> PODMAN = List.of("podman", "--runtime", "runc", "--cgroup-manager", "cgroupfs");
    private static final List<String> LIMITS =
            List.of("--ulimit", "nofile=16384:16384", "--ulimit", "nproc=4096:4096");
    /** The stop docs/reference.md states: the 5 s drain, up to 10 s for requests in flight, and room to spare. */
    private static final Duration GRACE_PERIOD = Duration.ofSeconds(20);
    private static final Duration BUILD_LIMIT = Duration.ofMinutes(10);
    private static final Duration COMMAND_LIMIT = Duration.ofMinutes(2);
    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static final Path BASE_CACHE = Path.of(System.getProperty("java.io.tmpdir"), "plantstore-image-base");
    private static final String TOKEN = "container-test-token";
    private static final Pattern HEAP_MAX = Pattern.compile(
            "(?m)^jvm_memory_max_bytes\\{area=\"heap\",id=\"[^\"]+\"} (\\S+)$");

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;

    /** The copy of the sources the image was built from. */
    private static Path sources;
    /** What Jib wrote about the image it built: its name, its id (the digest of its configuration). */
    private static JsonNode built;

    private final List<String> containers = new ArrayList<>();
    private final List<String> volumes = new ArrayList<>();

    /** A finished command: its status and what it printed. */
    private record Result(int status, String out, String err) {
    }

    @BeforeAll
    static void buildTheImageFromACopyOfTheSourcesAndLoadIt() throws Exception {
        RequiredTools.require("Container image test", REQUIRED_VARIABLE, Map.of(
                Path.of("/usr/bin/podman"), "podman", Path.of("/usr/sbin/runc"), "runc",
                Path.of("/usr/bin/mmdebstrap"), "mmdebstrap"));
        Path base = baseArchive();
        sources = copyOfSources(Files.createDirectory(work.resolve("sources")));
        built = buildImage(sources, base, "first");
        String loaded = succeed(COMMAND_LIMIT, podman("load", "-i", imageArchive(sources).toString()));
        assertTrue(loaded.contains(image()), loaded);
        assertEquals(built.get("imageId").asText(), "sha256:" + inspect("image", image(), "{{.Id}}"),
                "podman loaded the image Jib built");
    }

    /** The loaded image goes too, so that no image of the test's stays under the name a user's build takes. */
    @AfterAll
    static void removeTheImage() throws Exception {
        if (built != null) {
            run(COMMAND_LIMIT, podman("rmi", "-f", image()));
        }
    }

    @AfterEach
    void removeContainersAndVolumes() throws Exception {
        for (String container : containers) {
            // -v: the anonymous volume podman made for the image's /data goes too.
            run(COMMAND_LIMIT, podman("rm", "-f", "-v", "-t", "0", container));
        }
        for (String volume : volumes) {
            run(COMMAND_LIMIT, podman("volume", "rm", "-f", volume));
        }
    }

    @Test
    void withoutARegistryOrABaseArchiveTheBuildSaysToNameOneAndStopsAtOnce() throws Exception {
        Path log = work.resolve("build-without-registry.log");
        int status = runImageBuild(sources, log, Optional.empty(),
                "-Dplantstore.image.registry=https://registry.invalid/v2/");
        assertEquals(1, status, tail(log));
        String output = Files.readString(log);
        assertTrue(output.contains("the base image eclipse-temurin:17-jre cannot be pulled: "
                + "https://registry.invalid/v2/ does not answer. Without a registry, make the base from Debian's "
                + "packages and name its archive in PLANTSTORE_IMAGE_BASE"), tail(log));
        assertFalse(output.contains("--- jib:"), "Jib never started: " + tail(log));
    }

    @Test
    void theReadmesCreateAndDeleteWorkThroughThePublishedPort() throws Exception {
        int api = Sockets.freePort();
        String container = start(List.of("-p", "127.0.0.1:" + api + ":8080", "-e", "PLANTSTORE_TOKENS=" + TOKEN));
        awaitListening(container, api);

        HttpResponse<String> created = send(PlantRequests.create(plants(api), TOKEN,
                "{\"id\": 1, \"name\": \"Monstera\", \"tag\": \"aroid\"}"));
        assertEquals(200, created.statusCode(), created.body());
        assertEquals("{\"name\":\"Monstera\",\"tag\":\"aroid\"}", created.body());
        HttpResponse<String> deleted = send(PlantRequests.delete(plants(api).resolve("/plants/1"), TOKEN));
        assertEquals(204, deleted.statusCode(), deleted.body());
    }

    /**
     * As docs/reference.md's Kubernetes example mounts a {@code kubernetes.io/tls} secret: a read-only directory at
     * {@code /tls} holding {@code tls.crt} and {@code tls.key}, root's, readable by the image's user through its group
     * as the example's {@code defaultMode: 0440} makes a secret volume's files, named by the variables.
     */
    @Test
    void theImageServesTlsAndHttp2FromAMountedSecretDirectory() throws Exception {
        Path secret = Files.createDirectories(work.resolve("tls-secret-" + UUID.randomUUID()));
        TestPki pki = TestPki.ca(Files.createDirectories(work.resolve("tls-ca-" + UUID.randomUUID())), "image-ca");
        TestPki.Pair pair = pki.issue("server", 4711, 30);
        Files.copy(pair.cert(), secret.resolve("tls.crt"));
        Files.copy(pair.key(), secret.resolve("tls.key"));
        for (Path file : List.of(secret, secret.resolve("tls.crt"), secret.resolve("tls.key"))) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
                    Files.isDirectory(file) ? "rwxr-xr-x" : "r--r-----"));
        }
        int api = Sockets.freePort();
        String container = start(List.of("-p", "127.0.0.1:" + api + ":8080", "-v", secret + ":/tls:ro",
                "-e", "PLANTSTORE_TOKENS=" + TOKEN, "-e", "PLANTSTORE_TLS_CERT_FILE=/tls/tls.crt",
                "-e", "PLANTSTORE_TLS_KEY_FILE=/tls/tls.key"));
        HttpClient https = HttpClient.newBuilder().sslContext(pki.clientContext())
                .version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5)).build();
        URI plants = URI.create("https://localhost:" + api + "/plants");
        boolean serving = Poll.until(START_LIMIT, Duration.ofMillis(200), () -> {
            if (!inspect("container", container, "{{.State.Running}}").equals("true")) {
                throw new AssertionError(container + " exited: " + run(COMMAND_LIMIT, podman("logs", container)));
            }
            try {
                return https.send(HttpRequest.newBuilder(plants.resolve("/health/live")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notYet) {
                return false;
            }
        });
        assertTrue(serving, "the image answers over TLS: " + run(COMMAND_LIMIT, podman("logs", container)));

        HttpResponse<String> created = https.send(PlantRequests.create(plants, TOKEN,
                "{\"id\": 1, \"name\": \"Monstera\"}").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, created.statusCode(), created.body());
        assertEquals(HttpClient.Version.HTTP_2, created.version());
        assertEquals(4711, pki.servedSerial(api).intValue(), "the mounted certificate is the one served");
        Result logs = run(COMMAND_LIMIT, podman("logs", container));
        assertTrue((logs.out() + logs.err()).contains("https://"), "the start-up output names the https address: "
                + logs);
    }

    /**
     * As docs/kafka.md's client properties come from a mounted secret: a read-only directory at {@code /kafka} holding
     * {@code client.properties}, root's and readable through the group as a secret volume's files with
     * {@code defaultMode: 0440}. On the host's network, so that the container reaches the test kit's broker.
     */
    @Test
    void theImageSendsEventsToKafkaWithTheClientPropertiesOfAMountedSecret() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String topic = "image-" + UUID.randomUUID();
        broker.createTopic(topic, 1);
        Path secret = Files.createDirectories(work.resolve("kafka-secret-" + UUID.randomUUID()));
        Files.writeString(secret.resolve("client.properties"), "client.id=plantstore-image\nlinger.ms=5\n");
        for (Path file : List.of(secret, secret.resolve("client.properties"))) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
                    Files.isDirectory(file) ? "rwxr-xr-x" : "r--r-----"));
        }
        int api = Sockets.freePort();
        String container = start(List.of("--network", "host", "-v", secret + ":/kafka:ro",
                "-e", "PLANTSTORE_TOKENS=" + TOKEN, "-e", "PLANTSTORE_PORT=" + api,
                "-e", "PLANTSTORE_MANAGEMENT_PORT=" + Sockets.freePort(),
                "-e", "PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS=" + broker.bootstrapServers(),
                "-e", "PLANTSTORE_KAFKA_TOPIC=" + topic,
                "-e", "PLANTSTORE_KAFKA_CONFIG_FILE=/kafka/client.properties"));
        awaitListening(container, api);

        HttpResponse<String> created = send(PlantRequests.create(plants(api), TOKEN,
                "{\"id\": 1, \"name\": \"Monstera\"}"));
        assertEquals(200, created.statusCode(), created.body());

        List<KafkaBroker.Event> records = broker.read(topic, 1, START_LIMIT);
        assertEquals(List.of("1"), records.stream().map(KafkaBroker.Event::key).toList(),
                "the create's record: " + run(COMMAND_LIMIT, podman("logs", container)));
        assertEquals("plant.created", records.get(0).header("ce_type"));
    }

    @Test
    void theServerRunsAsAUserOtherThanRoot() throws Exception {
        int api = Sockets.freePort();
        String container = start(List.of("-p", "127.0.0.1:" + api + ":8080", "-e", "PLANTSTORE_TOKENS=" + TOKEN));
        awaitListening(container, api);

        // The server's own process: its user inside the container and on the host.
        List<String> users = succeed(COMMAND_LIMIT, podman("top", container, "user", "huser")).lines()
                .skip(1).flatMap(line -> Stream.of(line.trim().split("\\s+"))).toList();
        assertEquals(List.of("10001", "10001"), users);
    }

    @Test
    void onAReadOnlyRootAPlantOnTheVolumeAtDataOutlivesTheContainer() throws Exception {
        String volume = volume();
        int firstPort = Sockets.freePort();
        String first = start(List.of("--read-only", "-v", volume + ":/data", "-p", "127.0.0.1:" + firstPort + ":8080",
                "-e", "PLANTSTORE_TOKENS=" + TOKEN));
        awaitListening(first, firstPort);
        HttpResponse<String> created = send(PlantRequests.create(plants(firstPort), TOKEN,
                PlantRequests.plantJson(7, "Monstera")));
        assertEquals(200, created.statusCode(), created.body());
        succeed(GRACE_PERIOD.plusSeconds(10), podman("stop", "-t", Long.toString(GRACE_PERIOD.toSeconds()), first));

        int secondPort = Sockets.freePort();
        String second = start(List.of("--read-only", "-v", volume + ":/data", "-p",
                "127.0.0.1:" + secondPort + ":8080", "-e", "PLANTSTORE_TOKENS=" + TOKEN));
        awaitListening(second, secondPort);
        HttpResponse<String> deleted = send(PlantRequests.delete(plants(secondPort).resolve("/plants/7"), TOKEN));
        assertEquals(204, deleted.statusCode(), "the plant the first container stored is there: " + deleted.body());

        Path mountpoint = Path.of(inspect("volume", volume, "{{.Mountpoint}}"));
        assertTrue(Files.isRegularFile(mountpoint.resolve("plantstore.db")), "the default store is on the volume");
    }

    @Test
    void podmanStopDrainsThenExitsZeroWithinTheGracePeriod() throws Exception {
        int api = Sockets.freePort();
        int management = Sockets.freePort();
        String container = start(List.of("-p", "127.0.0.1:" + api + ":8080", "-p",
                "127.0.0.1:" + management + ":9090", "-e", "PLANTSTORE_TOKENS=" + TOKEN));
        awaitListening(container, api);
        assertEquals(200, status(management, "/health/ready"), "ready on the management port the image exposes");

        Process stop = new ProcessBuilder(podman("stop", "-t", Long.toString(GRACE_PERIOD.toSeconds()), container))
                .redirectErrorStream(true).redirectOutput(work.resolve(container + "-stop.txt").toFile()).start();
        boolean notReady = Poll.until(Duration.ofSeconds(5), Duration.ofMillis(50),
                () -> status(management, "/health/ready") == 503);
        assertTrue(notReady, "readiness turns 503 once the drain begins");
        HttpResponse<String> createdWhileDraining = send(PlantRequests.create(plants(api), TOKEN,
                PlantRequests.plantJson(3, "Fern")));
        assertEquals(200, createdWhileDraining.statusCode(), "the API still serves while it drains");

        assertTrue(stop.waitFor(GRACE_PERIOD.toSeconds() + 10, TimeUnit.SECONDS), "podman stop returns");
        assertEquals(0, stop.exitValue(), Files.readString(work.resolve(container + "-stop.txt")));
        String logs = succeed(COMMAND_LIMIT, podman("logs", container));
        // 0, not SIGKILL's 137: the stop ended within the grace period, however slow this machine is today.
        assertEquals("0", inspect("container", container, "{{.State.ExitCode}}"),
                "a stop within the grace period, not podman's SIGKILL after it: " + logs);
        assertTrue(logs.contains("plantstore draining: not ready, serving for 5 s more"), logs);
        assertTrue(logs.strip().endsWith("plantstore stopped"), logs);
    }

    @Test
    void aRefusedOptionExitsWithStatus2AndItsOneLine() throws Exception {
        List<String> command = new ArrayList<>(podman("run", "--rm"));
        command.addAll(LIMITS);
        command.addAll(List.of(image(), "--port", "eighty"));
        Result refused = run(COMMAND_LIMIT, command);
        assertEquals(2, refused.status(), refused.err());
        assertEquals("", refused.out());
        assertEquals("plantstore: --port must be an integer from 0 to 65535, got 'eighty'\n", refused.err());
    }

    @Test
    void theHeapIsThreeQuartersOfTheContainersMemoryLimit() throws Exception {
        long limit = 512L * 1024 * 1024;
        int api = Sockets.freePort();
        int management = Sockets.freePort();
        String container = start(List.of("--memory", Long.toString(limit), "-p", "127.0.0.1:" + api + ":8080", "-p",
                "127.0.0.1:" + management + ":9090", "-e", "PLANTSTORE_TOKENS=" + TOKEN));
        awaitListening(container, api);

        String metrics = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + management + "/metrics")))
                .body();
        Matcher pools = HEAP_MAX.matcher(metrics);
        double heap = 0;
        while (pools.find()) {
            heap += Double.parseDouble(pools.group(1));
        }
        // The heap's pools add up to about the maximum heap; without the image's flag it would be a quarter.
        double share = heap / limit;
        assertTrue(Math.abs(share - 0.75) < 0.05, "heap " + (long) heap + " bytes, " + share + " of the limit");
    }

    /**
     * Our code is in layers that hold nothing else: the libraries' layer has none of our jars, so a change to our code
     * alone leaves it, and the base, as they are. The sizes are printed, for docs/reference.md.
     */
    @Test
    void ourCodeIsInLayersOfItsOwn() throws Exception {
        Map<String, List<String>> layers = layerContents();
        layers.forEach((name, files) -> System.out.println("layer " + name + ": " + files.size() + " entries"));
        String version = image().substring(image().indexOf(':') + 1);

        assertTrue(files(layers.get("dependencies")).stream().allMatch(file -> file.startsWith("app/libs/")
                        && !file.startsWith("app/libs/plantstore-")),
                "the libraries' layer holds libraries only: " + layers.get("dependencies"));
        assertEquals(Set.of("app/libs/plantstore-core-" + version + ".jar", "app/libs/plantstore-http-" + version
                        + ".jar", "app/libs/plantstore-oidc-" + version + ".jar",
                        "app/libs/plantstore-webhooks-" + version + ".jar",
                        "app/libs/plantstore-kafka-" + version + ".jar",
                        "app/libs/plantstore-sqlite-" + version + ".jar"),
                Set.copyOf(files(layers.get("project dependencies"))));
        assertTrue(layers.get("classes").contains("app/classes/dev/plantstore/app/Main.class"),
                layers.get("classes").toString());
        assertTrue(files(layers.get("classes")).stream().allMatch(file -> file.startsWith("app/classes/")),
                layers.get("classes").toString());
        assertTrue(files(layers.get("resources")).stream().allMatch(file -> file.startsWith("app/resources/")),
                layers.get("resources").toString());
    }

    /** The same sources, built again from nothing, give the same image: the same layers and configuration. */
    @Test
    void theSameSourcesBuildTheSameImage() throws Exception {
        try (Stream<Path> targets = Files.walk(sources)) {
            for (Path target : targets.filter(path -> path.getFileName().toString().equals("target")).toList()) {
                deleteTree(target);
            }
        }
        JsonNode again = buildImage(sources, baseArchive(), "second");
        assertEquals(built.get("imageId").asText(), again.get("imageId").asText());
        assertEquals(built.get("imageDigest").asText(), again.get("imageDigest").asText());
    }

    /**
     * A change to our code alone ships as our code's layers alone: the base's layers and the libraries' layer stay
     * as they were, so a registry and a node already holding them fetch only ours.
     */
    @Test
    void aChangeToOurCodeChangesOnlyOurCodesLayers() throws Exception {
        Path changed = copyOfSources(Files.createDirectory(work.resolve("changed-sources")));
        for (String module : List.of("plantstore-core/src/main/java/dev/plantstore/core",
                "plantstore-app/src/main/java/dev/plantstore/app")) {
            String pkg = module.substring(module.indexOf("java/") + 5).replace('/', '.');
            Files.writeString(changed.resolve(module).resolve("ChangedForTheLayerTest.java"),
                    "package " + pkg + ";\n\nfinal class ChangedForTheLayerTest {\n}\n");
        }
        buildImage(changed, baseArchive(), "changed");

        Map<String, String> before = layerDigests(imageArchive(sources));
        Map<String, String> after = layerDigests(imageArchive(changed));
        assertEquals(before.keySet(), after.keySet(), "the same layers");
        Set<String> differing = before.keySet().stream()
                .filter(layer -> !before.get(layer).equals(after.get(layer)))
                .collect(Collectors.toSet());
        assertEquals(Set.of("project dependencies", "classes"), differing,
                "the layers a change to our code alone changed");
    }

    /** The base: Debian's minimal system and Java runtime, as docs/reference.md makes it without a registry. */
    private static Path baseArchive() throws Exception {
        Path archive = BASE_CACHE.resolve("base-archive.tar");
        if (Files.isRegularFile(archive)) {
            return archive;
        }
        Files.createDirectories(BASE_CACHE);
        String unique = UUID.randomUUID().toString();
        Path root = BASE_CACHE.resolve("root-" + unique + ".tar");
        Path partial = BASE_CACHE.resolve("archive-" + unique + ".tar");
        String tag = "localhost/plantstore-test-base:" + unique;
        try {
            succeed(BUILD_LIMIT, List.of("mmdebstrap", "--variant=minbase", "--include=openjdk-17-jre-headless",
                    "bookworm", root.toString()));
            succeed(COMMAND_LIMIT, podman("import", root.toString(), tag));
            succeed(COMMAND_LIMIT, podman("save", "--format", "docker-archive", "-o", partial.toString(), tag));
            run(COMMAND_LIMIT, podman("rmi", tag));
            // Whole or not at all: a run that stops half-way leaves no archive for the next to take.
            Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(root);
            Files.deleteIfExists(partial);
        }
        return archive;
    }

    /** The working tree without what builds and git add to it, as a fresh clone has it. */
    private static Path copyOfSources(Path copy) throws IOException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isExecutable(repository.resolve("mvnw")), "the repository is above the module: " + repository);
        Files.walkFileTree(repository, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                if (name.equals("target") || name.equals(".git")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(copy.resolve(repository.relativize(dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.copy(file, copy.resolve(repository.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
        return copy;
    }

    /** The one command, with the base from {@code base}; what Jib wrote about the image. */
    private static JsonNode buildImage(Path from, Path base, String name) throws Exception {
        Path log = work.resolve("build-" + name + ".log");
        assertEquals(0, runImageBuild(from, log, Optional.of(base)), "the build failed: " + tail(log));
        assertTrue(Files.isRegularFile(imageArchive(from)), "the build wrote " + imageArchive(from));
        return JSON.readTree(from.resolve("plantstore-app/target/jib-image.json").toFile());
    }

    /**
     * The page's image build in {@code from}, its output in {@code log}, the base from {@code base} or, when empty,
     * with no PLANTSTORE_IMAGE_BASE at all; its exit status.
     */
    private static int runImageBuild(Path from, Path log, Optional<Path> base, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of("./mvnw", "-B", "-DskipTests", "-Pimage", "package"));
        command.addAll(List.of(flags));
        ProcessBuilder build = new ProcessBuilder(command)
                .directory(from.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        build.environment().remove("PLANTSTORE_IMAGE_BASE");
        base.ifPresent(archive -> build.environment().put("PLANTSTORE_IMAGE_BASE", archive.toString()));
        Process running = build.start();
        if (!running.waitFor(BUILD_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            running.destroyForcibly().waitFor();
            throw new AssertionError("the build still running after " + BUILD_LIMIT.toMinutes() + " min: " + tail(log));
        }
        return running.exitValue();
    }

    private static Path imageArchive(Path from) {
        return from.resolve("plantstore-app/target/plantstore-image.tar");
    }

    private static String image() {
        return built.get("image").asText();
    }

    /** Each of Jib's layers by its name in the image's history, with the paths it holds. */
    private Map<String, List<String>> layerContents() throws Exception {
        Path unpacked = Files.createDirectory(work.resolve("layers-" + UUID.randomUUID()));
        succeed(COMMAND_LIMIT, List.of("tar", "-xf", imageArchive(sources).toString(), "-C", unpacked.toString(),
                "manifest.json", "config.json"));
        JsonNode manifest = JSON.readTree(unpacked.resolve("manifest.json").toFile()).get(0);
        JsonNode history = JSON.readTree(unpacked.resolve("config.json").toFile()).get("history");
        List<String> layerFiles = new ArrayList<>();
        manifest.get("Layers").forEach(layer -> layerFiles.add(layer.asText()));
        // The base's layers, then Jib's, each named in the history by what it holds.
        List<JsonNode> layerHistory = new ArrayList<>();
        history.forEach(entry -> {
            if (!entry.path("empty_layer").asBoolean(false)) {
                layerHistory.add(entry);
            }
        });
        assertEquals(layerFiles.size(), layerHistory.size(), "a history entry per layer: " + history);
        Map<String, List<String>> layers = new LinkedHashMap<>();
        for (int i = 0; i < layerFiles.size(); i++) {
            if (!layerHistory.get(i).path("author").asText().equals("Jib")) {
                continue;
            }
            succeed(COMMAND_LIMIT, List.of("tar", "-xf", imageArchive(sources).toString(), "-C", unpacked.toString(),
                    layerFiles.get(i)));
            String listing = succeed(COMMAND_LIMIT, List.of("tar", "-tzf",
                    unpacked.resolve(layerFiles.get(i)).toString()));
            layers.put(layerHistory.get(i).path("comment").asText(),
                    listing.lines().map(line -> line.replaceFirst("^\\.?/", "")).toList());
        }
        return layers;
    }

    /** Each layer's digest by its name in the image's history: "base N" for the base's, Jib's name for ours. */
    private Map<String, String> layerDigests(Path archive) throws Exception {
        Path unpacked = Files.createDirectory(work.resolve("config-" + UUID.randomUUID()));
        succeed(COMMAND_LIMIT, List.of("tar", "-xf", archive.toString(), "-C", unpacked.toString(), "config.json"));
        JsonNode config = JSON.readTree(unpacked.resolve("config.json").toFile());
        List<String> digests = new ArrayList<>();
        config.get("rootfs").get("diff_ids").forEach(digest -> digests.add(digest.asText()));
        Map<String, String> layers = new LinkedHashMap<>();
        int base = 0;
        for (JsonNode entry : config.get("history")) {
            if (entry.path("empty_layer").asBoolean(false)) {
                continue;
            }
            String name = entry.path("author").asText().equals("Jib") ? entry.path("comment").asText()
                    : "base " + base++;
            layers.put(name, digests.get(layers.size()));
        }
        assertEquals(digests.size(), layers.size(), "a history entry per layer: " + config.get("history"));
        return layers;
    }

    /** The files among a layer's entries, not the directories that lead to them. */
    private static List<String> files(List<String> entries) {
        return entries.stream().filter(entry -> !entry.endsWith("/")).collect(Collectors.toList());
    }

    /** Starts the image in the background, with this machine's limits and {@code options}; removed after the test. */
    private String start(List<String> options) throws Exception {
        String name = "plantstore-test-" + UUID.randomUUID().toString().substring(0, 8);
        containers.add(name);
        List<String> command = new ArrayList<>(podman("run", "-d", "--name", name));
        command.addAll(LIMITS);
        command.addAll(options);
        command.add(image());
        succeed(COMMAND_LIMIT, command);
        return name;
    }

    private String volume() throws Exception {
        String name = "plantstore-test-" + UUID.randomUUID().toString().substring(0, 8);
        volumes.add(name);
        succeed(COMMAND_LIMIT, podman("volume", "create", name));
        return name;
    }

    /** Waits until the server answers on its published port; a container that exits first fails with its log. */
    private void awaitListening(String container, int port) throws Exception {
        boolean listening = Poll.until(START_LIMIT, Duration.ofMillis(100), () -> {
            if (!inspect("container", container, "{{.State.Running}}").equals("true")) {
                throw new AssertionError(container + " exited: " + run(COMMAND_LIMIT, podman("logs", container)));
            }
            return status(port, "/health/live") == 200;
        });
        assertTrue(listening, container + " not answering after " + START_LIMIT.toSeconds() + " s: "
                + run(COMMAND_LIMIT, podman("logs", container)));
    }

    private static String inspect(String kind, String name, String format) throws Exception {
        return succeed(COMMAND_LIMIT, podman(kind, "inspect", "--format", format, name)).strip();
    }

    private static URI plants(int port) {
        return URI.create("http://127.0.0.1:" + port + "/plants");
    }

    /** The status of a GET, or 0 while nothing answers. */
    private static int status(int port, String path) throws InterruptedException {
        try {
            return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))).statusCode();
        } catch (IOException e) {
            return 0;
        }
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> podman(String... args) {
        List<String> command = new ArrayList<>(PODMAN);
        command.addAll(List.of(args));
        return command;
    }

    /** Runs {@code command} to its end, at most {@code limit}; its output is kept in files, not pipes. */
    private static Result run(Duration limit, List<String> command) throws IOException, InterruptedException {
        String unique = UUID.randomUUID().toString();
        Path out = work.resolve("command-" + unique + ".out");
        Path err = work.resolve("command-" + unique + ".err");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(command + " still running after " + limit.toSeconds() + " s: "
                    + Files.readString(out) + Files.readString(err));
        }
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Runs {@code command}, which must succeed; what it printed on standard output. */
    private static String succeed(Duration limit, List<String> command) throws IOException, InterruptedException {
        Result result = run(limit, command);
        assertEquals(0, result.status(), command + " failed: " + result.out() + result.err());
        return result.out();
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }
}
