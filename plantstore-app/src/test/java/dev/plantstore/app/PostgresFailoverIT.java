package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.ClosedLoopClients;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar on a real pg_auto_failover formation (Debian's packages; a monitor and two nodes with synchronous
 * replication, run as {@code postgres} on free ports), through the multi-host URL, with 8 clients creating plants and
 * a webhook receiver the test runs. Three faults, one after the other: a planned switchover, a primary whose
 * synchronous standby's machine is lost (every commit waits for it until the monitor lets the primary go on alone),
 * and the primary's machine lost (its keeper and PostgreSQL killed) until the monitor promotes the standby.
 *
 * <p>Through all of them: only 200 and 503 (with Retry-After, within the bound) are answered; writes are acknowledged
 * again within {@link #BACK_WITHIN} of the primary taking them; readiness is 503 while writes cannot commit and 200
 * once they do; the log says when writes fail, naming replication when that is why, and when they work again; every
 * acknowledged create is stored on the last primary and its event delivered. Skipped, saying so, without root or the
 * packages; {@code .ci/run} installs them and sets
 * {@value dev.plantstore.testkit.PostgresAsPostgres#REQUIRED_VARIABLE}, so under CI it runs or fails.
 */
@Tag("heavy")
@Tag("alone")
class PostgresFailoverIT {

    private static final int CLIENTS = 8;
    /** Each client's pause between creates: enough load to fill batches, few enough events to deliver them all. */
    private static final Duration CLIENT_PAUSE = Duration.ofMillis(20);
    private static final Duration BACK_WITHIN = Duration.ofSeconds(5);
    /** How long the monitor may take to decide, with the formation's shortened time-outs, and a margin. */
    private static final Duration DECISION_LIMIT = Duration.ofSeconds(60);
    private static final Duration DELIVERY_LIMIT = Duration.ofSeconds(120);
    private static final Duration LOOK = Duration.ofMillis(20);
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String UNHEALTHY_TIMEOUT = "pgautofailover.node_considered_unhealthy_timeout";
    private static final Pattern CREATED = Pattern.compile("\"type\":\"plant\\.created\".*?\"id\":(\\d+)");

    @TempDir
    java.nio.file.Path dir;

    @Test
    void aSwitchoverAMissingStandbyAndALostPrimaryLoseNothingAcknowledgedAndWritesComeBackWithinFiveSeconds()
            throws Exception {
        try (var receiver = new WebhookReceiver(); var formation = Formation.start()) {
            receiver.answer(200);
            Map<String, String> env = Map.of("PLANTSTORE_TOKENS", Faults.TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                    "PLANTSTORE_WEBHOOK_URL", receiver.url().toString());
            var ids = new Faults.Ids(1);
            var phases = new StringBuilder();
            assertTrue(Poll.until(DECISION_LIMIT, LOOK, () -> formation.takesWrites("node1")), "node1 takes writes");
            String log;
            try (var jar = RunningJar.start(dir, env, "--store", formation.serviceUrl(),
                    "--log-format", "json")) {
                var sent = new AtomicLong();
                // Paced, so that what each fault does to the writes in flight is seen request by request.
                var load = ClosedLoopClients.start("failover-client", CLIENTS, (client, step) -> {
                    ids.send(jar);
                    sent.incrementAndGet();
                    Thread.sleep(CLIENT_PAUSE.toMillis());
                    return true;
                });
                try {
                    awaitMoreAcknowledged(ids, 200);
                    // A planned switchover starts from a primary with its synchronous standby: on a busy machine the
                    // monitor may have called the standby unhealthy for a moment, and a primary it let go on alone
                    // (wait_primary) acknowledges writes that a switchover then loses, as pg_auto_failover documents.
                    formation.awaitState("node2", "secondary");
                    formation.awaitState("node1", "primary");

                    phases.append("switchover from id ").append(ids.nextId()).append('\n');
                    report("planned switchover", awaitWritesBack(jar, ids, formation, "node2", false, () -> {
                        formation.switchover();
                        formation.awaitState("node2", "primary");
                    }));

                    // The monitor's own time to call the standby unhealthy (20 s by default), longer than the
                    // store's 5 s: commits wait for the standby until their time-out cancels the wait.
                    formation.setOnMonitor(UNHEALTHY_TIMEOUT, "15000");
                    phases.append("node1 lost from id ").append(ids.nextId()).append('\n');
                    report("synchronous standby's machine lost",
                            awaitWritesBack(jar, ids, formation, "node2", true, () -> formation.loseMachine("node1")));
                    assertTrue(Poll.until(DECISION_LIMIT, LOOK, () -> jar.outputSoFar().contains(
                            "might not have been replicated")), "the log names replication:\n" + jar.outputSoFar());
                    phases.append("node1 restarted from id ").append(ids.nextId()).append('\n');
                    formation.startKeeper("node1");
                    formation.awaitState("node1", "secondary");
                    formation.awaitState("node2", "primary");
                    formation.setOnMonitor(UNHEALTHY_TIMEOUT, Formation.MONITOR_SETTINGS.get(UNHEALTHY_TIMEOUT));
                    awaitMoreAcknowledged(ids, 200);

                    phases.append("node2 lost from id ").append(ids.nextId()).append('\n');
                    report("primary's machine lost",
                            awaitWritesBack(jar, ids, formation, "node1", true, () -> formation.loseMachine("node2")));
                    awaitMoreAcknowledged(ids, 200);
                } finally {
                    load.close();
                }
                System.out.println("failover: " + sent.get() + " creates sent by " + CLIENTS + " clients");
                ids.assertEveryAnswerAsPromised();
                assertStoredOn(formation.nodeUrl("node1"), ids.acknowledged(),
                        () -> phases + formation.events());
                assertEveryCreateDelivered(receiver, ids.acknowledged());
                log = jar.stopAndCollectOutput();
            }
            assertFaultsLoggedAsStates(log);
        }
    }

    /** Making a fault: a command, a kill. */
    @FunctionalInterface
    private interface Fault {
        void make() throws Exception;
    }

    /** When writes came back after a fault, and how long after the primary took them. */
    private record Recovery(long primaryTookWritesAfterMillis, long writesBackAfterMillis, boolean wentUnready) {
    }

    /**
     * Makes {@code fault}, then waits until {@code primary} takes writes and the jar acknowledges a create sent
     * after that, within {@link #BACK_WITHIN}; meanwhile, for a fault that stops writes ({@code stopsWrites}),
     * readiness must have said 503. Readiness is 200 again once writes are back.
     */
    private static Recovery awaitWritesBack(RunningJar jar, Faults.Ids ids, Formation formation, String primary,
                                            boolean stopsWrites, Fault fault) throws Exception {
        long faultAt = System.nanoTime();
        fault.make();
        var unready = new AtomicBoolean();
        var watcher = new Thread(() -> {
            try {
                unready.set(Poll.until(DECISION_LIMIT, LOOK, () -> Faults.status(jar, "/health/ready") == 503));
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        }, "readiness-watcher");
        if (stopsWrites) {
            watcher.start();
            boolean refused = Poll.until(DECISION_LIMIT, LOOK, unready::get);
            assertTrue(refused, "readiness says 503 while writes cannot commit");
        }
        boolean takes = Poll.until(DECISION_LIMIT, LOOK, () -> formation.takesWrites(primary));
        assertTrue(takes, primary + " takes writes within " + DECISION_LIMIT.toSeconds() + " s\n"
                + formation.log("monitor"));
        long tookWritesAt = System.nanoTime();
        int acknowledgedThen = ids.acknowledged().size();
        boolean back = Poll.until(BACK_WITHIN.plusSeconds(10), LOOK,
                () -> ids.acknowledged().size() > acknowledgedThen);
        long backAt = System.nanoTime();
        long backMillis = TimeUnit.NANOSECONDS.toMillis(backAt - tookWritesAt);
        assertTrue(back && backMillis <= BACK_WITHIN.toMillis(), () -> "a create is acknowledged within "
                + BACK_WITHIN.toSeconds() + " s of " + primary + " taking writes (" + Instant.now().minusMillis(
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tookWritesAt)) + "); it took " + backMillis
                + " ms\n" + summary(jar.outputSoFar()) + formation.log(primary).lines()
                .filter(line -> line.contains("ynchronous") || line.contains("state")).toList());
        assertTrue(Poll.until(BACK_WITHIN, LOOK, () -> Faults.status(jar, "/health/ready") == 200),
                "readiness is 200 once writes commit again");
        watcher.interrupt();
        watcher.join();
        return new Recovery(TimeUnit.NANOSECONDS.toMillis(tookWritesAt - faultAt), backMillis, unready.get());
    }

    /** The log's lines other than access lines, and per second the access lines' statuses and slowest answer. */
    private static String summary(String log) {
        var summary = new StringBuilder();
        Map<String, Map<String, Integer>> statusesBySecond = new java.util.TreeMap<>();
        Map<String, Double> slowestBySecond = new HashMap<>();
        Pattern access = Pattern.compile("\"time\":\"[^\"]*T([0-9:]{8}).*\"durationMs\":([0-9.]+),\"status\":(\\d+)");
        for (String line : log.lines().toList()) {
            Matcher matcher = access.matcher(line);
            if (!line.contains("dev.plantstore.access")) {
                summary.append(line).append('\n');
            } else if (matcher.find()) {
                statusesBySecond.computeIfAbsent(matcher.group(1), second -> new java.util.TreeMap<>())
                        .merge(matcher.group(3), 1, Integer::sum);
                slowestBySecond.merge(matcher.group(1), Double.parseDouble(matcher.group(2)), Math::max);
            }
        }
        statusesBySecond.forEach((second, statuses) -> summary.append(second).append(' ').append(statuses)
                .append(" slowest ").append(slowestBySecond.get(second)).append(" ms\n"));
        return summary.toString();
    }

    private static List<Long> runStarts(TreeSet<Long> ids) {
        List<Long> starts = new ArrayList<>();
        long previous = Long.MIN_VALUE;
        for (long id : ids) {
            if (id != previous + 1) {
                starts.add(id);
            }
            previous = id;
        }
        return starts;
    }

    private static void report(String fault, Recovery recovery) {
        System.out.printf("%s: the primary took writes %d ms after the fault began; the jar acknowledged "
                + "creates again %d ms after that%s%n", fault, recovery.primaryTookWritesAfterMillis(),
                recovery.writesBackAfterMillis(), recovery.wentUnready() ? "; readiness was 503 meanwhile" : "");
    }

    private static void awaitMoreAcknowledged(Faults.Ids ids, int more) throws Exception {
        int now = ids.acknowledged().size();
        assertTrue(Poll.until(DECISION_LIMIT, LOOK, () -> ids.acknowledged().size() >= now + more),
                more + " more creates acknowledged");
    }

    /** On a failure, {@code context} says when each fault began (by id) and what the monitor decided. */
    private static void assertStoredOn(String primaryUrl, Set<Long> acknowledged, Supplier<String> context)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(primaryUrl);
             PreparedStatement stored = connection.prepareStatement("SELECT id FROM plants WHERE id = ANY (?)")) {
            Array wanted = connection.createArrayOf("int8", acknowledged.toArray());
            stored.setArray(1, wanted);
            var missing = new TreeSet<>(acknowledged);
            try (ResultSet rows = stored.executeQuery()) {
                while (rows.next()) {
                    missing.remove(rows.getLong(1));
                }
            }
            assertEquals(Set.of(), missing, () -> "every acknowledged create is on the last primary; missing "
                    + missing.size() + " of " + acknowledged.size() + ", in runs starting at " + runStarts(missing)
                    + "\n" + context.get());
        }
        System.out.println("failover: " + acknowledged.size() + " acknowledged creates, all on the last primary");
    }

    private static void assertEveryCreateDelivered(WebhookReceiver receiver, Set<Long> acknowledged)
            throws Exception {
        boolean delivered = Poll.until(DELIVERY_LIMIT, Duration.ofMillis(200),
                () -> deliveredCreates(receiver).containsAll(acknowledged));
        Set<Long> missing = new HashSet<>(acknowledged);
        missing.removeAll(deliveredCreates(receiver));
        assertTrue(delivered, missing.size() + " acknowledged creates had no event delivered, e.g. "
                + missing.stream().limit(10).toList());
    }

    private static Set<Long> deliveredCreates(WebhookReceiver receiver) {
        Set<Long> created = new HashSet<>();
        for (WebhookReceiver.Received request : receiver.accepted()) {
            Matcher matcher = CREATED.matcher(request.body());
            if (matcher.find()) {
                created.add(Long.parseLong(matcher.group(1)));
            }
        }
        return created;
    }

    /**
     * The writes' faults in the log as states: each start ("failing") has its end ("working again"), replication is
     * named, and the lines about them are a few per fault, not one per request.
     */
    private static void assertFaultsLoggedAsStates(String log) {
        List<String> writeLines = log.lines().filter(line -> line.contains("plant store writes")).toList();
        long started = writeLines.stream().filter(line -> line.contains("writes failing")).count();
        long ended = writeLines.stream().filter(line -> line.contains("working again")).count();
        assertTrue(started >= 2 && started == ended, "every fault's start and end are logged:\n" + writeLines);
        assertTrue(writeLines.size() <= 3L * Faults.FAULT_LINES, "a few lines per fault:\n" + writeLines);
        assertTrue(writeLines.stream().anyMatch(line -> line.contains("writes failing")
                && line.contains("replicated")), "the missing standby's fault names replication:\n" + writeLines);
    }
}
