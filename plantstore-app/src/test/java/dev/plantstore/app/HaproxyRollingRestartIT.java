package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.ClosedLoopClients;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.RequiredTools;
import dev.plantstore.testkit.TestPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances on one PostgreSQL database behind Debian's HAProxy, which checks {@code /health/ready}. Under 16
 * clients creating and deleting through HAProxy, A is restarted with SIGTERM, then B: no request fails and every
 * answer is the one the store's state calls for. Then A is killed with SIGKILL: only requests in flight may fail, and
 * HAProxy stops routing to A within its check interval. Skipped, saying so, without haproxy or PostgreSQL;
 * {@code .ci/run} installs haproxy and sets {@value #REQUIRED_VARIABLE}, so under CI the test runs or fails.
 */
@Tag("heavy")
@Tag("alone")
class HaproxyRollingRestartIT {

    static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_HAPROXY";
    private static final Path HAPROXY = Path.of("/usr/sbin/haproxy");

    private static final String TOKEN = "haproxy-test-token";
    private static final int CLIENTS = 16;
    /** HAProxy's check interval and the failures that mark a server DOWN. */
    private static final int CHECK_INTERVAL_MILLIS = 500;
    private static final int FALL = 2;
    /** Longer than HAProxy needs to see FALL failed checks, so it has stopped sending before the instance stops. */
    private static final int DRAIN_SECONDS = 2;

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    /** An answer that was not the one the store's state called for, or no answer at all; and when it was asked. */
    private record Failure(String request, String outcome, long sentNanos) {
    }

    private static void requireHaproxy() {
        RequiredTools.require("HAProxy test", REQUIRED_VARIABLE, Map.of(HAPROXY, "haproxy"));
    }

    @Test
    void aRollingRestartLosesNothingAndAKilledInstanceIsTakenOutWithinTheCheckInterval() throws Exception {
        requireHaproxy();
        try (var postgres = TestPostgres.freshSchema()) {
            int portA = freePort();
            int portB = freePort();
            int frontend = freePort();
            int stats = freePort();
            RunningJar a = instance(postgres, portA);
            RunningJar b = instance(postgres, portB);
            Process haproxy = startHaproxy(frontend, stats, portA, portB);
            var load = new Load(URI.create("http://127.0.0.1:" + frontend));
            try {
                awaitStatus(stats, "a", "UP");
                awaitStatus(stats, "b", "UP");
                load.start();
                load.awaitCompleted(200);

                a = restart(a, postgres, portA, stats, "a", load);
                b = restart(b, postgres, portB, stats, "b", load);
                List<Failure> restartFailures = load.failuresSoFar();
                long completedThroughRestarts = load.completed.get();
                assertEquals(List.of(), restartFailures,
                        "no failed request through two rolling restarts (" + completedThroughRestarts + " answered)");

                long killedAt = System.nanoTime();
                a.process().destroyForcibly().waitFor();
                // The kernel frees a dying process's memory before it closes its sockets: until then A's listening
                // socket still completes connections, and a request sent on one is in flight at the kill too.
                long deadAt = System.nanoTime();
                awaitStatus(stats, "a", "DOWN");
                long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                long completedAtDetection = load.completed.get();
                load.awaitCompleted(completedAtDetection + 200);
                load.stop();
                List<Failure> killFailures = load.failuresSoFar();
                System.out.printf("HAProxy rolling restart: %d requests through two SIGTERM restarts, 0 failed; "
                        + "after SIGKILL of A: %d failed (%s), A taken out of rotation after %d ms%n",
                        completedThroughRestarts, killFailures.size(), killFailures, detectedMillis);
                assertTrue(killFailures.stream().allMatch(failure -> failure.sentNanos() - deadAt < 0),
                        "only requests in flight at the kill may fail, none sent once A had died: " + killFailures);
                // FALL failed checks, each up to an interval apart and the first up to an interval after the kill.
                long bound = (long) (FALL + 1) * CHECK_INTERVAL_MILLIS + 1_000;
                assertTrue(detectedMillis <= bound, "DOWN after " + detectedMillis + " ms, bound " + bound + " ms");
                assertTrue(load.completed.get() > completedAtDetection, "B goes on serving alone");
            } finally {
                load.stop();
                haproxy.destroyForcibly();
                a.close();
                b.close();
            }
        }
    }

    private RunningJar instance(TestPostgres postgres, int port) throws Exception {
        return RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--port", Integer.toString(port),
                "--store", postgres.schemaUrl(), "--drain-seconds", Integer.toString(DRAIN_SECONDS),
                "--auth-failure-limit", "0");
    }

    /** SIGTERM, wait for the exit, start again on the same port, and wait until HAProxy sends it requests again. */
    private RunningJar restart(RunningJar jar, TestPostgres postgres, int port, int stats, String server, Load load)
            throws Exception {
        jar.process().destroy();
        assertTrue(jar.process().waitFor(30, TimeUnit.SECONDS), server + " stops");
        assertEquals(0, jar.process().exitValue(), jar.outputSoFar());
        assertTrue(jar.outputSoFar().contains("plantstore draining"), jar.outputSoFar());
        RunningJar restarted = instance(postgres, port);
        awaitStatus(stats, server, "UP");
        load.awaitCompleted(load.completed.get() + 200);
        return restarted;
    }

    private Process startHaproxy(int frontend, int stats, int portA, int portB) throws IOException {
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(config, haproxyConfig(frontend, stats, portA, portB));
        Process process = new ProcessBuilder(HAPROXY.toString(), "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        return process;
    }

    /**
     * docs/deploy/haproxy.cfg on this test's addresses and check interval, with a stats page to watch the checks: every
     * other line as shipped.
     */
    private static String haproxyConfig(int frontend, int stats, int portA, int portB) throws IOException {
        String shipped = Files.readString(ReaderShell.ROOT.resolve("docs/deploy/haproxy.cfg"));
        String config = replacedOnce(shipped, "    bind :8080\n", "    bind 127.0.0.1:" + frontend + "\n");
        config = replacedOnce(config, "    default-server inter 1s fall 2 rise 2\n",
                "    default-server inter " + CHECK_INTERVAL_MILLIS + "ms fall " + FALL + " rise 2\n");
        config = replacedOnce(config, "    server a 10.0.0.11:8080 check\n",
                "    server a 127.0.0.1:" + portA + " check\n");
        config = replacedOnce(config, "    server b 10.0.0.12:8080 check\n",
                "    server b 127.0.0.1:" + portB + " check\n");
        return "global\n    maxconn 4096\n\n" + config + """

                listen stats
                    bind 127.0.0.1:%d
                    stats enable
                    stats uri /stats
                """.formatted(stats);
    }

    private static String replacedOnce(String config, String line, String replacement) {
        assertTrue(config.contains(line) && config.indexOf(line) == config.lastIndexOf(line),
                "docs/deploy/haproxy.cfg has the line once: " + line);
        return config.replace(line, replacement);
    }

    /** Polls HAProxy's CSV statistics until {@code server} has {@code status}, for up to 60 s. */
    private static void awaitStatus(int stats, String server, String status) throws Exception {
        String[] last = {""};
        boolean reported = Poll.until(Duration.ofSeconds(60), Duration.ofMillis(20), () -> {
            try {
                last[0] = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stats + "/stats;csv"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body();
                // Exactly: "UP 1/2" is a server on its way down, "DOWN 1/2" one on its way up.
                return serverStatus(last[0], server).equals(status);
            } catch (IOException e) {
                last[0] = e.toString();
                return false;
            }
        });
        assertTrue(reported, () -> "HAProxy did not report " + server + " " + status + " within 60 s:\n" + last[0]);
    }

    private static String serverStatus(String csv, String server) {
        List<String> lines = csv.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
            return "";
        }
        List<String> columns = List.of(lines.get(0).substring(2).split(","));
        int name = columns.indexOf("svname");
        int status = columns.indexOf("status");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            if (fields[0].equals("plantstore") && fields[name].equals(server)) {
                return fields[status];
            }
        }
        return "";
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * {@value #CLIENTS} clients, each creating a plant with an id of its own and deleting it, over and over: a create
     * must answer 200 and a delete 204, since no one else touches that id. A create that got no answer may or may not
     * have been stored, so the delete after it may answer 204 or 404.
     */
    private static final class Load {

        private final URI base;
        private final AtomicLong completed = new AtomicLong();
        private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
        private ClosedLoopClients clients;

        Load(URI base) {
            this.base = base;
        }

        void start() {
            clients = ClosedLoopClients.start("haproxy-client", CLIENTS, this::createAndDelete);
        }

        /** A client's ids are its own, a billion apart from the next client's. */
        private boolean createAndDelete(int client, long step) {
            long id = client * 1_000_000_000L + step;
            boolean created = exchange("POST /plants " + id, HttpRequest.newBuilder(base.resolve("/plants"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":" + id + ",\"name\":\"Fern\"}")),
                    Set.of(200));
            exchange("DELETE /plants/" + id, HttpRequest.newBuilder(base.resolve("/plants/" + id)).DELETE(),
                    created ? Set.of(204) : Set.of(204, 404));
            return true;
        }

        /** Sends the request; whether it was answered with an expected status, else it is a failure. */
        private boolean exchange(String request, HttpRequest.Builder builder, Set<Integer> expected) {
            long sent = System.nanoTime();
            try {
                var response = HTTP.send(builder.header("Authorization", "Bearer " + TOKEN)
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
                if (expected.contains(response.statusCode())) {
                    return true;
                }
                failures.add(new Failure(request, response.statusCode() + " " + response.body(), sent));
            } catch (IOException e) {
                failures.add(new Failure(request, e.toString(), sent));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failures.add(new Failure(request, "interrupted", sent));
            } finally {
                completed.incrementAndGet();
            }
            return false;
        }

        void awaitCompleted(long count) throws InterruptedException {
            Poll.until(Duration.ofSeconds(60), Duration.ofMillis(10), () -> completed.get() >= count);
            assertTrue(completed.get() >= count, "load reached " + completed.get() + " of " + count + " requests");
        }

        List<Failure> failuresSoFar() {
            return List.copyOf(failures);
        }

        /** Stops the clients, if they were started. */
        void stop() throws InterruptedException {
            if (clients != null) {
                clients.close();
            }
        }
    }
}
