package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.PreviousRelease;
import dev.plantstore.testkit.WebhookReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator's scripts, dashboards and log queries depend on keeps everything the previous release had
 * (docs/compatibility.md): its options, environment variables and commands as {@code --help} lists them, its metrics
 * and their labels as {@code /metrics} shows them, and its JSON log lines' fields. Each is read from the previous
 * release's jar and from this build's, run the same way; a removal fails. The check is shown to pass this build
 * against itself and to fail on a copy of its output with one thing removed.
 */
class OperatorInterfaceCompatibilityIT {

    private static final String TOKEN = "compatibility-token";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern OPTION = Pattern.compile("(?m)^  (?:-\\w, )?(--[a-z][a-z-]*)");
    private static final Pattern VARIABLE = Pattern.compile("PLANTSTORE_[A-Z_]+");
    private static final Pattern COMMAND = Pattern.compile("java -jar plantstore\\.jar ([a-z]+)");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");
    /** Not labels of a metric but of a histogram's or summary's series. */
    private static final Set<String> SERIES_LABELS = Set.of("le", "quantile");
    /**
     * The JVM's pause metrics appear once the JVM has collected garbage, which a short run may not do: the promise
     * about them is Micrometer's binder's, not a run's.
     */
    private static final String CONNECTION_TIMER = "jetty_connections_request_seconds_count";
    private static final Pattern APPEARS_WITH_THE_JVM_S_WORK = Pattern.compile("jvm_gc_pause_seconds.*");

    private static Surface current;

    @TempDir
    Path dir;

    @BeforeAll
    static void readThisBuild(@TempDir Path buildDir) throws Exception {
        current = Surface.of(Outputs.of(RunningJar.builtJar(), buildDir));
    }

    @Test
    void thisBuildKeepsWhatThePreviousReleaseOffered() throws Exception {
        Path previousJar = PreviousRelease.require().serverJar();
        assertNothingRemoved(Surface.of(Outputs.of(previousJar, dir)), current);
    }

    @Test
    void theCheckPassesThisBuildAgainstItselfAndSeesEveryKind() {
        assertNothingRemoved(current, current);
        assertTrue(current.options().containsAll(List.of("--store", "--management-port", "--help", "--version")),
                current.options().toString());
        assertTrue(current.variables().containsAll(List.of("PLANTSTORE_STORE", "PLANTSTORE_TOKENS")),
                current.variables().toString());
        assertEquals(Set.of("migrate", "backup", "webhooks"), current.commands());
        assertEquals(Set.of("method", "route", "status"),
                current.metrics().get("http_server_requests_seconds_count"));
        assertTrue(current.metrics().containsKey("plantstore_webhook_deliveries_total")
                && current.metrics().containsKey("plantstore_store_commit_seconds_count")
                && current.metrics().containsKey(CONNECTION_TIMER),
                current.metrics().keySet().toString());
        assertTrue(current.accessFields().containsAll(List.of("client", "method", "route", "status", "durationMs",
                "requestId", "problem")), current.accessFields().toString());
        assertTrue(current.everyLineFields().containsAll(List.of("time", "level", "logger", "message")),
                current.everyLineFields().toString());
    }

    @Test
    void theCheckFailsARemovedOption() {
        Outputs broken = current.outputs().withHelp(help -> help.replaceAll("(?m)^  --drain-seconds .*\\n", "")
                .replace("PLANTSTORE_DRAIN_SECONDS", ""));
        assertRemoval("option --drain-seconds", broken);
        assertRemoval("variable PLANTSTORE_DRAIN_SECONDS", broken);
    }

    @Test
    void theCheckFailsARemovedCommand() {
        assertRemoval("command backup", current.outputs().withHelp(help -> help.replace("plantstore.jar backup", "")));
    }

    @Test
    void theCheckFailsARemovedMetric() {
        assertRemoval("metric plantstore_requests_refused_total", current.outputs()
                .withMetrics(metrics -> metrics.replaceAll("(?m)^plantstore_requests_refused_total.*\\n", "")));
    }

    @Test
    void theCheckFailsARemovedLabel() {
        assertRemoval("label route of metric http_server_requests_seconds_count", current.outputs()
                .withMetrics(metrics -> metrics.replaceAll("route=\"[^\"]*\",?", "")));
    }

    @Test
    void theCheckFailsARemovedLogField() {
        assertRemoval("access line field durationMs", current.outputs()
                .withLog(log -> log.replaceAll("\"durationMs\":[0-9.]+,?", "")));
        assertRemoval("every line's field level", current.outputs()
                .withLog(log -> log.replaceAll("\"level\":\"[A-Z]+\",?", "")));
    }

    /** This build's outputs, with one thing taken out, fail the check naming it. */
    private static void assertRemoval(String removal, Outputs broken) {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> assertNothingRemoved(current, Surface.of(broken)));
        assertTrue(failure.getMessage().contains(removal), failure.getMessage());
    }

    static void assertNothingRemoved(Surface previous, Surface current) {
        List<String> removed = new ArrayList<>();
        removedFrom("option ", previous.options(), current.options(), removed);
        removedFrom("variable ", previous.variables(), current.variables(), removed);
        removedFrom("command ", previous.commands(), current.commands(), removed);
        previous.metrics().forEach((metric, labels) -> {
            if (!current.metrics().containsKey(metric)) {
                removed.add("metric " + metric);
            } else {
                labels.stream().filter(label -> !current.metrics().get(metric).contains(label))
                        .forEach(label -> removed.add("label " + label + " of metric " + metric));
            }
        });
        removedFrom("access line field ", previous.accessFields(), current.accessFields(), removed);
        removedFrom("every line's field ", previous.everyLineFields(), current.everyLineFields(), removed);
        if (!removed.isEmpty()) {
            throw new AssertionError("this build removes what the previous release had: " + removed);
        }
    }

    private static void removedFrom(String kind, Set<String> previous, Set<String> current, List<String> removed) {
        previous.stream().filter(name -> !current.contains(name)).forEach(name -> removed.add(kind + name));
    }

    /** What a jar printed for --help, its management port's /metrics, and its standard output in JSON. */
    record Outputs(String help, String metrics, String log) {

        /**
         * Runs {@code jar} as an operator would: --help, then the server on a SQLite file with the management port,
         * JSON logs and a webhook receiver, serving a create, a delete and a refused token, until the events are
         * delivered.
         */
        static Outputs of(Path jar, Path dir) throws Exception {
            var help = RunningJar.runJarToCompletion(jar, dir, "--help");
            assertEquals(0, help.exitCode(), help.stderr());
            String metrics;
            String log;
            try (var receiver = new WebhookReceiver();
                 var running = RunningJar.startJar(jar, dir, Map.of("PLANTSTORE_TOKENS", TOKEN,
                         "PLANTSTORE_WEBHOOK_SECRET", SECRET), "--store", "sqlite:plants.db", "--management-port", "0",
                         "--log-format", "json", "--webhook-url", receiver.url().toString())) {
                assertEquals(200, send(PlantRequests.create(running.uri("/plants"), TOKEN,
                        PlantRequests.plantJson(1, "Monstera", "aroid"))));
                assertEquals(204, send(PlantRequests.delete(running.uri("/plants/1"), TOKEN)));
                assertEquals(401, send(PlantRequests.delete(running.uri("/plants/1"), "not-" + TOKEN)));
                assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50),
                        () -> receiver.acceptedCount() == 2), "both events delivered: " + receiver.received());
                closeOneConnection(running.port());
                assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50),
                        () -> running.metrics().contains(CONNECTION_TIMER)), CONNECTION_TIMER + " after a close");
                metrics = running.metrics();
                log = running.stopAndCollectOutput();
            }
            return new Outputs(help.stdout(), metrics, log);
        }

        /**
         * Jetty's connection timer is registered when the first connection closes, which a run's clients, keeping
         * theirs alive, may not do before the scrape: one connection closed by its client makes it appear in every run.
         */
        private static void closeOneConnection(int port) throws IOException {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            }
        }

        Outputs withHelp(UnaryOperator<String> change) {
            return new Outputs(change.apply(help), metrics, log);
        }

        Outputs withMetrics(UnaryOperator<String> change) {
            return new Outputs(help, change.apply(metrics), log);
        }

        Outputs withLog(UnaryOperator<String> change) {
            return new Outputs(help, metrics, change.apply(log));
        }

        private static int send(HttpRequest.Builder request) throws IOException, InterruptedException {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    /**
     * The names an operator depends on: options, variables and commands; each metric's label names; the fields of
     * the access line and those every line has.
     */
    record Surface(Outputs outputs, Set<String> options, Set<String> variables, Set<String> commands,
                   Map<String, Set<String>> metrics, Set<String> accessFields, Set<String> everyLineFields) {

        static Surface of(Outputs outputs) {
            Map<String, Set<String>> metrics = new TreeMap<>();
            for (String line : outputs.metrics().lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                    .toList()) {
                Matcher sample = SAMPLE.matcher(line);
                assertTrue(sample.matches(), "a Prometheus sample: " + line);
                if (APPEARS_WITH_THE_JVM_S_WORK.matcher(sample.group(1)).matches()) {
                    continue;
                }
                Set<String> labels = metrics.computeIfAbsent(sample.group(1), name -> new TreeSet<>());
                if (sample.group(2) != null) {
                    all(LABEL, sample.group(2)).stream().filter(label -> !SERIES_LABELS.contains(label))
                            .forEach(labels::add);
                }
            }
            Set<String> access = new TreeSet<>();
            Set<String> everyLine = null;
            for (String line : outputs.log().lines().filter(line -> !line.isBlank()).toList()) {
                Set<String> fields = new TreeSet<>();
                JsonNode object = json(line);
                object.fieldNames().forEachRemaining(fields::add);
                if ("dev.plantstore.access".equals(object.path("logger").asText())) {
                    access.addAll(fields);
                }
                if (everyLine == null) {
                    everyLine = new HashSet<>(fields);
                } else {
                    everyLine.retainAll(fields);
                }
            }
            return new Surface(outputs, all(OPTION, outputs.help()), all(VARIABLE, outputs.help()),
                    all(COMMAND, outputs.help()), metrics, access,
                    everyLine == null ? Set.of() : new TreeSet<>(everyLine));
        }

        private static Set<String> all(Pattern pattern, String text) {
            Matcher matcher = pattern.matcher(text);
            Set<String> found = new TreeSet<>();
            while (matcher.find()) {
                found.add(matcher.groupCount() == 0 ? matcher.group() : matcher.group(1));
            }
            return found;
        }

        private static JsonNode json(String line) {
            try {
                return JSON.readTree(line);
            } catch (IOException e) {
                throw new UncheckedIOException("not a JSON log line: " + line, e);
            }
        }
    }
}
