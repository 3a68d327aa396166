package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;

/**
 * What every real fault is checked for, from a client's side and an operator's: each request answered within
 * {@link #ANSWER_BOUND} with 200 or a 503 that carries {@code Retry-After}; {@code /health} and {@code /health/ready}
 * 503 while writes cannot commit and {@code /health/live} 200 throughout; recovery by itself within
 * {@link #RECOVERY_BOUND} of the fault's end; every acknowledged create stored; a few JSON log lines per fault.
 */
final class Faults {

    static final String TOKEN = "fault-token";
    static final Map<String, String> ENV = Map.of("PLANTSTORE_TOKENS", TOKEN);
    /** The store's 5 s bound, plus the machine's slack. */
    static final Duration ANSWER_BOUND = Duration.ofSeconds(7);
    /** How soon after a fault ends the server must take writes again, by itself. */
    static final Duration RECOVERY_BOUND = Duration.ofSeconds(10);
    /** Lines other than access lines a fault may add to the log, however long it lasts. */
    static final int FAULT_LINES = 6;
    /** Set to {@code required} (as {@code .ci/run} does) to fail rather than skip when a fault cannot be made. */
    static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_FAULTS";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Faults() {
    }

    /** Real faults need root (mounting a file system, stopping the database); without it the test is skipped. */
    static void requireRoot() {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root && "required".equals(System.getenv(REQUIRED_VARIABLE))) {
            throw new AssertionError(REQUIRED_VARIABLE + "=required but the tests do not run as root");
        }
        Assumptions.assumeTrue(root, "real faults need root");
    }

    record Answer(int status, Duration took, boolean retryAfter) {
    }

    static Answer create(RunningJar jar, long id) throws IOException, InterruptedException {
        var request = PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, "plant " + id))
                .timeout(ANSWER_BOUND.plusSeconds(5))
                .build();
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            return new Answer(response.statusCode(), took, response.headers().firstValue("Retry-After").isPresent());
        } catch (HttpTimeoutException e) {
            return new Answer(-1, Duration.ofNanos(System.nanoTime() - start), false);
        }
    }

    static int status(RunningJar jar, String path) throws IOException, InterruptedException {
        return status(jar.uri(path));
    }

    static int status(URI uri) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(uri).timeout(ANSWER_BOUND.plusSeconds(5)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** A create that is either acknowledged or refused as the contract says: 503 with Retry-After, within the bound. */
    static void assertAnsweredAsPromised(Answer answer) {
        assertTrue(answer.status() == 200 || answer.status() == 503,
                "answered 200 or 503, not " + (answer.status() < 0 ? "never (a hang)" : answer.status()));
        assertTrue(answer.took().compareTo(ANSWER_BOUND) <= 0, "answered in " + answer.took().toMillis() + " ms");
        if (answer.status() == 503) {
            assertTrue(answer.retryAfter(), "a 503 carries Retry-After");
        }
    }

    /** Creates until the store refuses one (the fault has reached it); each answer as promised. */
    static void awaitRefusal(RunningJar jar, Ids ids, Duration limit) throws Exception {
        boolean refused = Poll.until(limit, Duration.ofMillis(50), () -> ids.send(jar).status() == 503);
        assertTrue(refused, "creates are refused within " + limit.toSeconds() + " s of the fault");
    }

    /** While writes cannot commit: not ready, not healthy, but alive, so that nothing restarts the process. */
    static void assertUnhealthyButAlive(RunningJar jar) throws Exception {
        assertEquals(503, status(jar, "/health"), "/health while writes cannot commit");
        assertEquals(503, status(jar, "/health/ready"), "/health/ready while writes cannot commit");
        assertEquals(200, status(jar, "/health/live"), "/health/live throughout");
    }

    /**
     * Creates until one is acknowledged, each answered as promised; fails unless that happens within
     * {@link #RECOVERY_BOUND}. Returns how long it took.
     */
    static Duration assertRecoversBy(String fault, RunningJar jar, Ids ids) throws Exception {
        long start = System.nanoTime();
        boolean recovered = Poll.until(RECOVERY_BOUND, Duration.ofMillis(50), () -> ids.send(jar).status() == 200);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(recovered, "writes succeed again within " + RECOVERY_BOUND.toSeconds() + " s, with no restart");
        assertEquals(200, status(jar, "/health"), "/health once writes commit again");
        assertEquals(200, status(jar, "/health/ready"), "/health/ready once writes commit again");
        System.out.println(fault + ": writes succeeded again " + took.toMillis() + " ms after the fault ended");
        return took;
    }

    /**
     * The log of a run with {@code --log-format json}: one JSON object per line, and besides the access lines at most
     * {@link #FAULT_LINES} about the fault, however many requests and batches failed.
     */
    static void assertFaultLoggedAsAFewJsonLines(String output) throws IOException {
        List<String> other = new ArrayList<>();
        for (String line : output.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode object;
            try {
                object = JSON.readTree(line);
            } catch (IOException e) {
                throw new AssertionError("a line that is not JSON: " + line + "\nin:\n" + output, e);
            }
            assertTrue(object != null && object.isObject(), "a JSON object per line: " + line);
            if (!"dev.plantstore.access".equals(object.path("logger").asText())) {
                other.add(line);
            }
        }
        // The start-up lines (the schema's creation among them) and the stop lines are not the fault's.
        other.removeIf(line -> line.contains("plantstore listening on") || line.contains(BuildInfo.OF_THIS_BUILD.line())
                || line.contains("\"store ")
                || line.contains("\"logger\":\"dev.plantstore.core.jdbc.Schema\"")
                || line.contains("plantstore stopped"));
        assertTrue(other.size() <= FAULT_LINES, "at most " + FAULT_LINES
                + " lines about the fault, not one per request or batch; there were " + other.size() + ":\n"
                + String.join("\n", other));
        assertTrue(other.stream().anyMatch(line -> line.contains("failing")), "the fault's start is logged:\n" + other);
        assertTrue(other.stream().anyMatch(line -> line.contains("working again")), "its end is logged:\n" + other);
    }

    /**
     * Fresh plant ids for creates, and the ones the server acknowledged: every one of them must be stored after the
     * fault, whatever happened to the others.
     */
    static final class Ids {
        private final AtomicLong next;
        private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        private final List<AssertionError> broken = new ArrayList<>();

        Ids(long first) {
            next = new AtomicLong(first);
        }

        Answer send(RunningJar jar) throws InterruptedException {
            long id = next.getAndIncrement();
            Answer answer;
            try {
                answer = create(jar, id);
            } catch (IOException e) {
                synchronized (broken) {
                    broken.add(new AssertionError("create " + id + " got no answer: " + e, e));
                }
                return new Answer(-1, Duration.ZERO, false);
            }
            if (answer.status() == 200) {
                acknowledged.add(id);
            }
            try {
                assertAnsweredAsPromised(answer);
            } catch (AssertionError e) {
                synchronized (broken) {
                    broken.add(e);
                }
            }
            return answer;
        }

        Set<Long> acknowledged() {
            return Set.copyOf(acknowledged);
        }

        /** The id the next create will use: every id below it has been sent. */
        long nextId() {
            return next.get();
        }

        /** Fails with the first promise a request broke, if any did. */
        void assertEveryAnswerAsPromised() {
            synchronized (broken) {
                if (!broken.isEmpty()) {
                    AssertionError first = broken.get(0);
                    fail(broken.size() + " requests broke the promise; the first: " + first.getMessage(), first);
                }
            }
        }
    }

    /** Runs {@code command}, failing with its output unless it exits 0 within {@code limit}. */
    static String run(Duration limit, String... command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("fault-command", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                fail(String.join(" ", command) + " did not end within " + limit.toSeconds() + " s: "
                        + Files.readString(output));
            }
            String printed = Files.readString(output);
            assertEquals(0, process.exitValue(), String.join(" ", command) + " failed: " + printed);
            return printed;
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
