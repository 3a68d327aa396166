package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import dev.plantstore.testkit.WebhookReceiver;
import dev.plantstore.testkit.WebhookReceiver.Received;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A receiver that answers {@code 410 Gone} is turned off for good: no further request, no event recorded for it, on
 * every instance sharing the database and after a restart, until an operator turns it on again with
 * {@code webhooks enable URL}; the events it had pending are kept as undeliverable, for {@code webhooks redeliver}.
 * Another receiver goes on as before.
 */
class WebhookReceiverGoneIT {

    private static final String TOKEN = "gone-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);

    @TempDir
    Path dir;

    @AutoClose
    private final WebhookReceiver gone = WebhookReceiver.onFreePort();
    @AutoClose
    private final WebhookReceiver healthy = WebhookReceiver.onFreePort();

    private interface Database {
        Connection open() throws SQLException;
    }

    @Test
    void onSqliteAReceiverAnswering410GetsNoFurtherRequestAcrossARestartUntilEnabled() throws Exception {
        Path file = dir.resolve("plants.db");
        String store = "sqlite:" + file;
        Database database = () -> DurableSqlite.dataSource(file).getConnection();
        gone.answer(410);
        int tried;
        try (var jar = start(store)) {
            create(jar, 1, 2, 3);
            awaitTurnedOff(jar);
            tried = gone.received().size();
            create(jar, 4, 5, 6);
            awaitNothingMoreFor(jar, tried, database, 6);
            assertTrue(Poll.until(WAIT, LOOK, () -> jar.metrics().contains(offGauge(1))), jar::metrics);
        }
        assertEquals(Set.of(1L, 2L, 3L), undeliverablePlants(store), "its pending events are kept, no later one");

        try (var restarted = start(store)) {
            assertTrue(Poll.until(WAIT, LOOK, () -> restarted.outputSoFar().contains("webhooks to " + gone.url()
                    + ": turned off (it answered 410 Gone)")), restarted::outputSoFar);
            create(restarted, 7);
            awaitNothingMoreFor(restarted, tried, database, 7);

            turnOnAndRedeliver(store, restarted, 8);
            assertTrue(Poll.until(WAIT, LOOK, () -> restarted.metrics().contains(offGauge(0))), restarted::metrics);
        }
    }

    @Test
    void onPostgresAReceiverAnswering410IsOffForEveryInstanceAndAcrossARestartUntilEnabled() throws Exception {
        try (TestPostgres postgres = TestPostgres.freshSchema()) {
            String store = postgres.schemaUrl();
            Database database = () -> DriverManager.getConnection(store);
            gone.answer(410);
            int tried;
            try (var first = start(store)) {
                try (var second = start(store)) {
                    create(first, 1);
                    awaitTurnedOff(first);
                    tried = gone.received().size();
                    // The other instance learns it from the database: it records nothing for the receiver either.
                    assertTrue(Poll.until(WAIT, LOOK, () -> second.metrics().contains(offGauge(1))), second::metrics);
                    create(second, 2, 3);
                    awaitNothingMoreFor(second, tried, database, 3);
                }
                try (var restarted = start(store)) {
                    assertTrue(Poll.until(WAIT, LOOK, () -> restarted.outputSoFar().contains("webhooks to "
                            + gone.url() + ": turned off (it answered 410 Gone)")), restarted::outputSoFar);
                    create(restarted, 4);
                    awaitNothingMoreFor(restarted, tried, database, 4);
                    assertEquals(Set.of(1L), undeliverablePlants(store), "its pending event is kept, no later one");

                    turnOnAndRedeliver(store, restarted, 5);
                    create(first, 6);
                    assertTrue(Poll.until(WAIT, LOOK, () -> acceptedPlants(gone).contains(6L)), gone::toString);
                }
            }
        }
    }

    private RunningJar start(String store) throws Exception {
        return RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN,
                "PLANTSTORE_WEBHOOK_SECRET", WebhooksIT.SECRET,
                "PLANTSTORE_WEBHOOK_URL", gone.url() + "," + healthy.url()),
                "--store", store, "--management-port", "0");
    }

    private static void create(RunningJar jar, long... ids) throws Exception {
        for (long id : ids) {
            assertEquals(200, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                    PlantRequests.plantJson(id, "Plant " + id)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
        }
    }

    private void awaitTurnedOff(RunningJar jar) throws InterruptedException {
        assertTrue(Poll.until(WAIT, LOOK, () -> jar.outputSoFar().contains("ERROR") && jar.outputSoFar().contains(
                "webhooks to " + gone.url() + ": answered 410 Gone, so it is turned off")), jar::outputSoFar);
    }

    /**
     * The other receiver has every event up to plant {@code lastId}, while the one that answered 410 got no request
     * beyond the {@code tried} it had and has no event pending in the outbox: none was recorded for it.
     */
    private void awaitNothingMoreFor(RunningJar jar, int tried, Database database, long lastId) throws Exception {
        assertTrue(Poll.until(WAIT, LOOK, () -> acceptedPlants(healthy).contains(lastId)), jar::outputSoFar);
        assertEquals(tried, gone.received().size(), () -> "no further request: " + gone.received());
        try (Connection connection = database.open(); PreparedStatement pending = connection.prepareStatement(
                "SELECT count(*) FROM webhook_outbox WHERE receiver = ? AND state = 0")) {
            pending.setString(1, gone.url().toString());
            try (ResultSet count = pending.executeQuery()) {
                count.next();
                assertEquals(0, count.getLong(1), "no event pending, nor recorded, for the receiver that is off");
            }
        }
    }

    /**
     * {@code webhooks enable URL} beside the running server: the receiver's next event ({@code nextId}) reaches it,
     * and {@code webhooks redeliver} sends the events kept while it was off.
     */
    private void turnOnAndRedeliver(String store, RunningJar jar, long nextId) throws Exception {
        Set<Long> kept = undeliverablePlants(store);
        gone.answer(204);
        RunningJar.Completed enabled = RunningJar.runToCompletion(dir, "webhooks", "enable", gone.url().toString(),
                "--store", store);
        assertEquals(0, enabled.exitCode(), enabled.stderr());
        assertTrue(enabled.stdout().contains(gone.url() + " turned on again"), enabled.stdout());
        create(jar, nextId);
        assertTrue(Poll.until(WAIT, LOOK, () -> acceptedPlants(gone).contains(nextId)), jar::outputSoFar);

        RunningJar.Completed redelivered = RunningJar.runToCompletion(dir, "webhooks", "redeliver", "--store", store,
                "--webhook-url", gone.url().toString());
        assertEquals(0, redelivered.exitCode(), redelivered.stderr());
        assertTrue(Poll.until(WAIT, LOOK, () -> acceptedPlants(gone).containsAll(kept)), jar::outputSoFar);
    }

    private Set<Long> undeliverablePlants(String store) throws Exception {
        RunningJar.Completed listed = RunningJar.runToCompletion(dir, "webhooks", "undeliverable", "--store", store,
                "--webhook-url", gone.url().toString());
        assertEquals(0, listed.exitCode(), listed.stderr());
        Set<Long> plants = new TreeSet<>();
        for (String line : listed.stdout().lines().filter(line -> line.startsWith("msg_")).toList()) {
            List<String> words = List.of(line.split(" "));
            plants.add(Long.parseLong(words.get(words.indexOf("plant") + 1)));
        }
        return plants;
    }

    private static Set<Long> acceptedPlants(WebhookReceiver receiver) {
        return receiver.accepted().stream().map(Received::plantId).collect(Collectors.toSet());
    }

    private String offGauge(int value) {
        return "plantstore_webhook_receiver_off{receiver=\"" + gone.url() + "\"} " + value + ".0";
    }
}
