package dev.plantstore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Uuid;

/**
 * A real Apache Kafka broker, the project's own server from Maven Central, in a process of its own: one node that is
 * broker and KRaft controller both, its storage formatted standalone, on free ports of 127.0.0.1, topics created only
 * when asked ({@code auto.create.topics.enable=false}). It can be killed with SIGKILL and started again on the same
 * ports and data. {@link #shared()} is the one broker the tests of a JVM share; a test that kills its broker starts
 * one of its own.
 */
public final class KafkaBroker implements AutoCloseable {

    /** How long a broker may take to start on this slow machine, shared with other builds. */
    public static final Duration START_LIMIT = Duration.ofSeconds(90);
    private static final Duration LOOK = Duration.ofMillis(100);

    private static KafkaBroker shared;

    private final Path dir;
    private final String clusterId;
    private final int nodeId;
    private final int port;
    private final int controllerPort;
    /** The static quorum of a cluster's controllers, {@code ID@HOST:PORT,...}; empty for a node alone. */
    private final Optional<String> voters;
    /** A listener of SASL with SCRAM beside the plain one, and its one user; empty without. */
    private final Optional<KafkaScramListener> scram;
    /** Whether the brokers authorize requests by ACLs, the plain listener's anonymous clients being super users. */
    private final boolean authorizing;
    private final String classpath;
    private Process process;

    private KafkaBroker(Path dir, String clusterId, int nodeId, int port, int controllerPort,
                        Optional<String> voters, Optional<KafkaScramListener> scram, boolean authorizing) {
        this.dir = dir;
        this.clusterId = clusterId;
        this.nodeId = nodeId;
        this.port = port;
        this.controllerPort = controllerPort;
        this.voters = voters;
        this.scram = scram;
        this.authorizing = authorizing;
        this.classpath = brokerClasspath();
    }

    /** A node of a cluster whose controllers are {@code voters}; formatted, not started. */
    static KafkaBroker clusterNode(Path dir, String clusterId, int nodeId, int port, int controllerPort,
                                   String voters) throws IOException, InterruptedException {
        var node = new KafkaBroker(dir, clusterId, nodeId, port, controllerPort, Optional.of(voters),
                Optional.empty(), false);
        node.format();
        return node;
    }

    /** The broker the tests of this JVM share, started at the first call and stopped as the JVM exits. */
    public static synchronized KafkaBroker shared() throws IOException, InterruptedException {
        if (shared == null) {
            KafkaBroker broker = start(Files.createTempDirectory("plantstore-kafka-"));
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
            shared = broker;
        }
        return shared;
    }

    /** A broker of its own in {@code dir}, formatted and started, its listener up. */
    public static KafkaBroker start(Path dir) throws IOException, InterruptedException {
        return start(dir, Sockets.freePort());
    }

    /** As {@link #start(Path)}, its listener on {@code port}. */
    public static KafkaBroker start(Path dir, int port) throws IOException, InterruptedException {
        return started(alone(dir, port, Optional.empty(), false));
    }

    /**
     * As {@link #start(Path)}, with a second listener that takes SCRAM-SHA-256 over SASL_PLAINTEXT
     * ({@link #scramBootstrapServers()}) and knows the one {@code user} with {@code password}; the plain listener
     * stays, for the test's own clients.
     */
    public static KafkaBroker startWithScram(Path dir, String user, String password)
            throws IOException, InterruptedException {
        return started(alone(dir, Sockets.freePort(),
                Optional.of(KafkaScramListener.plaintext(user, password)), false));
    }

    /**
     * As {@link #startWithScram}, the brokers authorizing every request by ACLs (Kafka's StandardAuthorizer): the
     * SCRAM user, {@code User:NAME}, may do nothing until granted; the plain listener's clients, the test's own, are
     * super users.
     */
    public static KafkaBroker startWithScramAndAcls(Path dir, String user, String password)
            throws IOException, InterruptedException {
        return started(alone(dir, Sockets.freePort(),
                Optional.of(KafkaScramListener.plaintext(user, password)), true));
    }

    /**
     * As {@link #startWithScram}, the second listener SASL_SSL with SCRAM-SHA-512: its key and self-signed
     * certificate for 127.0.0.1 made in {@code dir}, in PEM, which {@link #scramClientProperties} trust.
     */
    public static KafkaBroker startWithScramOverTls(Path dir, String user, String password)
            throws IOException, InterruptedException {
        KafkaTlsFiles tls = KafkaTlsFiles.selfSigned(dir.resolve("tls"));
        return started(alone(dir, Sockets.freePort(),
                Optional.of(KafkaScramListener.overTls(user, password, tls)), false));
    }

    /** A node alone, broker and the one controller of its cluster. */
    private static KafkaBroker alone(Path dir, int port, Optional<KafkaScramListener> scram, boolean authorizing)
            throws IOException {
        return new KafkaBroker(dir, Uuid.randomUuid().toString(), 1, port, Sockets.freePort(), Optional.empty(), scram,
                authorizing);
    }

    private static KafkaBroker started(KafkaBroker broker) throws IOException, InterruptedException {
        broker.format();
        broker.launch();
        broker.awaitServing();
        return broker;
    }

    /** The SCRAM listener, {@code 127.0.0.1:PORT}. */
    public String scramBootstrapServers() {
        return "127.0.0.1:" + scram.orElseThrow().port();
    }

    /**
     * {@code ./mvnw -q -pl plantstore-testkit exec:java@kafka-broker -Dexec.args=PORT}: a broker on {@code PORT} with
     * the topic {@code plant-events}, for docs/kafka.md; it runs until stopped, and its data goes with it.
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: KafkaBroker PORT");
            System.exit(2);
        }
        KafkaBroker broker = start(Files.createTempDirectory("plantstore-kafka-"), Integer.parseInt(args[0]));
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
        broker.createTopic("plant-events", 3);
        System.out.println("Kafka broker on " + broker.bootstrapServers() + ", topic plant-events");
        Thread.currentThread().join();
    }

    /** {@code 127.0.0.1:PORT}, as a client's {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The node's {@code node.id}: 1 alone, 1 to N in a {@link KafkaCluster}. */
    public int nodeId() {
        return nodeId;
    }

    /** What the broker printed (its own log goes to its data directory). */
    public String output() throws IOException {
        return Files.readString(dir.resolve("broker.out"));
    }

    /** Kills the broker as a crash would: SIGKILL, no shutdown of its own. */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor();
            process = null;
        }
    }

    /** Starts the broker again after {@link #kill()}, on the same ports and data. */
    public void restart() throws IOException, InterruptedException {
        kill();
        launch();
        awaitServing();
    }

    /** Creates {@code topic} with {@code partitions} partitions and waits until the broker serves it. */
    public void createTopic(String topic, int partitions) throws InterruptedException {
        createTopic(topic, partitions, Map.of());
    }

    /** As {@link #createTopic(String, int)}, the topic configured so ({@code max.message.bytes}, say). */
    public void createTopic(String topic, int partitions, Map<String, String> configs) throws InterruptedException {
        KafkaClients.createTopic(bootstrapServers(), new NewTopic(topic, partitions, (short) 1).configs(configs));
    }

    /** A record as a consumer read it: its key, value (as UTF-8 text), timestamp and headers (as text). */
    public record Event(String key, String value, long timestamp, Map<String, String> headers) {

        /** A header's value, or null when the record has none of that name. */
        public String header(String name) {
            return headers.get(name);
        }

        static Event of(ConsumerRecord<String, byte[]> record) {
            Map<String, String> headers = new LinkedHashMap<>();
            record.headers().forEach(header -> headers.put(header.key(),
                    new String(header.value(), StandardCharsets.UTF_8)));
            return new Event(record.key(), new String(record.value(), StandardCharsets.UTF_8), record.timestamp(),
                    headers);
        }
    }

    /**
     * Every record of {@code topic} from its start, read until {@code count} are in or {@code limit} has passed, by a
     * consumer that reads only committed data and commits nothing.
     */
    public List<Event> read(String topic, int count, Duration limit) {
        return KafkaClients.read(bootstrapServers(), Map.of(), topic, count, limit).stream().map(Event::of).toList();
    }

    /**
     * As {@link #read(String, int, Duration)}, through the SCRAM listener as the user a sink writes as, with its
     * password.
     */
    public List<Event> readOverScram(String topic, int count, Duration limit) {
        KafkaScramListener listener = scram.orElseThrow();
        return KafkaClients.read(scramBootstrapServers(), listener.clientProperties(listener.password()), topic, count,
                limit).stream().map(Event::of).toList();
    }

    /**
     * The client properties of the SCRAM listener's user with {@code password} (the right one or not): protocol,
     * mechanism, JAAS line, and the trust of its certificate over SASL_SSL.
     */
    public Map<String, String> scramClientProperties(String password) {
        return scram.orElseThrow().clientProperties(password);
    }

    /** {@link #scramClientProperties} in {@code file}, readable by its owner only, as {@code --kafka-config-file}. */
    public Path writeScramClientProperties(Path file, String password) throws IOException {
        return scram.orElseThrow().writeClientProperties(file, password);
    }

    private void format() throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("data"));
        var config = new Properties();
        config.put("process.roles", "broker,controller");
        config.put("node.id", Integer.toString(nodeId));
        voters.ifPresentOrElse(quorum -> config.put("controller.quorum.voters", quorum),
                () -> config.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort));
        String sasl = scram.map(user -> "," + user.protocol() + "://127.0.0.1:" + user.port()).orElse("");
        config.put("listeners", "PLAINTEXT://127.0.0.1:" + port + sasl + ",CONTROLLER://127.0.0.1:" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + sasl);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("listener.security.protocol.map",
                "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT");
        scram.ifPresent(user -> {
            String listener = "listener.name." + user.protocol().toLowerCase(Locale.ROOT) + ".";
            config.put("sasl.enabled.mechanisms", user.mechanism());
            config.put(listener + user.mechanism().toLowerCase(Locale.ROOT) + ".sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            user.tls().ifPresent(tls -> {
                config.put(listener + "ssl.keystore.type", "PEM");
                config.put(listener + "ssl.keystore.location", tls.keyStore().toString());
            });
        });
        if (authorizing) {
            config.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
            // The plain listener's and the controllers' clients: the test's own and the brokers themselves.
            config.put("super.users", "User:ANONYMOUS");
        }
        config.put("log.dirs", dir.resolve("data").toString());
        config.put("auto.create.topics.enable", "false");
        config.put("offsets.topic.replication.factor", "1");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        try (var out = Files.newBufferedWriter(dir.resolve("server.properties"))) {
            config.store(out, "a broker of the tests");
        }
        List<String> format = new ArrayList<>(List.of("format", "-t", clusterId, "-c",
                dir.resolve("server.properties").toString()));
        if (voters.isEmpty()) {
            format.add("--standalone");
        }
        scram.ifPresent(user -> format.addAll(List.of("--add-scram",
                user.mechanism() + "=[name=" + user.user() + ",password=" + user.password() + "]")));
        Process formatting = new ProcessBuilder(command("kafka.tools.StorageTool", format.toArray(String[]::new)))
                .redirectErrorStream(true).redirectOutput(dir.resolve("format.out").toFile()).start();
        if (!formatting.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS) || formatting.exitValue() != 0) {
            formatting.destroyForcibly();
            throw new IllegalStateException("formatting the broker's storage failed: "
                    + Files.readString(dir.resolve("format.out")));
        }
    }

    /** Starts the broker's process; a node of a cluster serves only once a majority of its controllers run. */
    void launch() throws IOException {
        process = new ProcessBuilder(command("kafka.Kafka", dir.resolve("server.properties").toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.out").toFile())).start();
    }

    /** Waits until the broker launched serves, or fails telling what it printed. */
    void awaitServing() throws IOException, InterruptedException {
        boolean up = Poll.until(START_LIMIT, LOOK, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the broker exited with " + process.exitValue() + ": " + output());
            }
            return serving();
        });
        if (!up) {
            kill();
            throw new IllegalStateException("the broker did not serve within " + START_LIMIT + ": " + output());
        }
    }

    /** Whether the broker answers a client: its listener accepts, and it describes its cluster. */
    private boolean serving() {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
        } catch (IOException e) {
            return false;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                5_000))) {
            return !admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).isEmpty();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private List<String> command(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dkafka.logs.dir=" + dir.resolve("logs"), "-cp", classpath, mainClass));
        command.addAll(List.of(args));
        return command;
    }

    /** The server's class path, as the test kit's build wrote it. */
    private static String brokerClasspath() {
        try (InputStream in = KafkaBroker.class.getResourceAsStream("kafka-broker.classpath")) {
            if (in == null) {
                throw new IllegalStateException("kafka-broker.classpath is missing beside the test kit's classes: "
                        + "build plantstore-testkit with Maven");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the broker and removes its data. */
    @Override
    public void close() {
        try {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Left in the temporary directory: nothing of a test's outcome depends on it.
        }
    }
}
