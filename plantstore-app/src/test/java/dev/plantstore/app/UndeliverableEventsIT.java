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
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator lists the events given up on and sends them again with the jar's {@code webhooks} command, beside the
 * running server, without SQL and without a restart.
 */
class UndeliverableEventsIT {

    private static final String TOKEN = "undeliverable-token";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern LISTED = Pattern.compile("(?m)^(msg_\\d+) plant\\.created plant (\\d+) recorded ");
    private static final int EVENTS = 3;

    @TempDir
    Path dir;

    @AutoClose
    private final WebhookReceiver receiver = WebhookReceiver.onFreePort();

    @Test
    void onSqliteUndeliverableEventsAreListedAndSentAgainByTheRunningServer() throws Exception {
        Path database = dir.resolve("plants.db");
        redelivers("sqlite:" + database, () -> DurableSqlite.dataSource(database).getConnection());
    }

    @Test
    void onPostgresUndeliverableEventsAreListedAndSentAgainByTheRunningServer() throws Exception {
        try (TestPostgres postgres = TestPostgres.freshSchema()) {
            redelivers(postgres.schemaUrl(), () -> DriverManager.getConnection(postgres.schemaUrl()));
        }
    }

    @Test
    void theCommandRefusesTheMemoryStoreWithAReason() throws Exception {
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, "webhooks", "redeliver", "--store", "memory");
        assertEquals(2, refused.exitCode());
        assertTrue(refused.stderr().contains("the memory store keeps its events in the server's own memory"),
                refused.stderr());
    }

    private interface Database {
        Connection open() throws SQLException;
    }

    private void redelivers(String store, Database database) throws Exception {
        receiver.answer(500);
        // The server is given credentials and a query; the logs, and so the operator, know the receiver without them.
        String withCredentials = receiver.url().toString().replace("://", "://hook-user:Pa55word@") + "?token=T0ken";
        Map<String, String> env = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                "PLANTSTORE_WEBHOOK_URL", withCredentials);
        try (var jar = RunningJar.start(dir, env, "--store", store)) {
            for (long id = 1; id <= EVENTS; id++) {
                assertEquals(200, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                        PlantRequests.plantJson(id, "Plant " + id)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode());
            }
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50), () -> !receiver.received().isEmpty()),
                    "the failing receiver was tried");
            // 72 hours of failures, arranged: the events are what the server keeps once it has given up on them.
            try (Connection connection = database.open(); Statement statement = connection.createStatement()) {
                assertEquals(EVENTS, statement.executeUpdate("UPDATE webhook_outbox SET state = 1"));
            }

            RunningJar.Completed listed = RunningJar.runToCompletion(dir, "webhooks", "undeliverable",
                    "--store", store);
            assertEquals(0, listed.exitCode(), listed.stderr());
            var listedIds = new TreeSet<String>();
            var listedPlants = new TreeSet<Long>();
            Matcher line = LISTED.matcher(listed.stdout());
            while (line.find()) {
                listedIds.add(line.group(1));
                listedPlants.add(Long.parseLong(line.group(2)));
            }
            assertEquals(new TreeSet<>(List.of(1L, 2L, 3L)), listedPlants, listed.stdout());
            assertTrue(!listed.stdout().contains("?") && !listed.stdout().contains("Pa55word")
                    && listed.stdout().contains(receiver.url().toString()),
                    "the receiver is shown as the logs show it: " + listed.stdout());

            receiver.answer(204);
            RunningJar.Completed redelivered = RunningJar.runToCompletion(dir, "webhooks", "redeliver",
                    "--store", store, "--webhook-url", receiver.url().toString());
            assertEquals(0, redelivered.exitCode(), redelivered.stderr());
            assertTrue(redelivered.stdout().contains(EVENTS + " undeliverable events of " + receiver.url()
                    + " pending again"), "the receiver named as the logs show it: " + redelivered.stdout());

            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50),
                    () -> receiver.acceptedCount() >= EVENTS), () -> "accepted " + receiver.accepted());
            var deliveredIds = new TreeSet<String>();
            receiver.accepted().stream().map(Received::id).forEach(deliveredIds::add);
            assertEquals(listedIds, deliveredIds, "each listed event arrived, under the id it was listed with");
            RunningJar.Completed after = RunningJar.runToCompletion(dir, "webhooks", "undeliverable",
                    "--store", store);
            assertEquals("no undeliverable events\n", after.stdout(), "none is left undeliverable");
        }
    }
}
