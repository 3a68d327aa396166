package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.testkit.ClosedLoopClients;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import dev.plantstore.testkit.WebhookReceiver;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling upgrade on PostgreSQL, as docs/reference.md's "Upgrading" describes it: two instances of the previous
 * release under load, {@code migrate} run beside them, then each replaced by this release in turn. The previous
 * release's jar is named by {@value #PREVIOUS_JAR}; without it the test is skipped.
 */
@Tag("heavy")
class PostgresRollingUpgradeIT {

    static final String PREVIOUS_JAR = "PLANTSTORE_TEST_PREVIOUS_JAR";
    private static final String TOKEN = "rolling-upgrade-token";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final int CLIENTS = 8;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void noAcknowledgedCreateIsLostAndEveryAnswerIs200Or503AndEveryEventArrives() throws Exception {
        String previous = System.getenv(PREVIOUS_JAR);
        Assumptions.assumeTrue(previous != null && Files.isRegularFile(Path.of(previous)),
                PREVIOUS_JAR + " does not name the previous release's jar");
        try (TestPostgres postgres = TestPostgres.freshSchema(); var receiver = new WebhookReceiver()) {
            Map<String, String> env = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", SECRET,
                    "PLANTSTORE_WEBHOOK_URL", receiver.url().toString());
            String store = postgres.schemaUrl();
            List<RunningJar> running = new ArrayList<>();
            var serving = new AtomicReferenceArray<URI>(2);
            for (int i = 0; i < 2; i++) {
                running.add(RunningJar.startJar(Path.of(previous), dir, env, "--store", store));
                serving.set(i, running.get(i).uri("/plants"));
            }
            var load = new Load(serving);
            try {
                load.start();
                load.awaitAcknowledged(200);

                RunningJar.Completed migrated = RunningJar.runToCompletion(dir, "migrate", "--store", store);
                assertEquals(0, migrated.exitCode(), migrated.stderr());
                // The previous release may be at this release's schema version already: then there is no step.
                assertTrue(migrated.stdout().matches("(?s).*(migrated from schema version \\d+ to "
                        + JdbcSchema.currentVersion() + "|is at schema version " + JdbcSchema.currentVersion()
                        + " already)\n"), migrated.stdout());
                load.awaitAcknowledged(load.acknowledged.size() + 200);

                for (int i = 0; i < 2; i++) {
                    serving.set(i, null);
                    running.get(i).stopAndCollectOutput();
                    running.set(i, RunningJar.start(dir, env, "--store", store, "--migrate", "off"));
                    serving.set(i, running.get(i).uri("/plants"));
                    load.awaitAcknowledged(load.acknowledged.size() + 200);
                }
            } finally {
                load.stop();
                running.forEach(RunningJar::close);
            }
            assertEquals(Map.of(), load.otherAnswers, "every answer was 200 or 503");
            Set<Long> stored = new HashSet<>();
            try (Connection connection = DriverManager.getConnection(store);
                 Statement statement = connection.createStatement();
                 ResultSet ids = statement.executeQuery("SELECT id FROM plants")) {
                while (ids.next()) {
                    stored.add(ids.getLong(1));
                }
            }
            assertTrue(stored.containsAll(load.acknowledged), "every acknowledged create is stored");
            try (var jar = RunningJar.start(dir, env, "--store", store, "--migrate", "off")) {
                assertTrue(Poll.until(Duration.ofSeconds(60), Duration.ofMillis(100), () -> delivered(receiver)
                        .containsAll(load.acknowledged)), "every acknowledged create's event arrived");
                assertTrue(jar.process().isAlive());
            }
        }
    }

    private static Set<Long> delivered(WebhookReceiver receiver) {
        Set<Long> ids = new HashSet<>();
        receiver.accepted().forEach(event -> ids.add(event.plantId()));
        return ids;
    }

    /** Clients creating plants on both instances in turn; while one is replaced, on the other. */
    private static final class Load {

        private final AtomicReferenceArray<URI> serving;
        private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        private final Map<Long, Integer> otherAnswers = new ConcurrentHashMap<>();
        private final AtomicLong nextId = new AtomicLong();
        private ClosedLoopClients clients;

        Load(AtomicReferenceArray<URI> serving) {
            this.serving = serving;
        }

        void start() {
            clients = ClosedLoopClients.start("upgrade-client", CLIENTS, (client, step) -> createOne());
        }

        private boolean createOne() throws InterruptedException {
            long id = nextId.incrementAndGet();
            int instance = (int) (id % 2);
            URI plants = serving.get(instance);
            if (plants == null) {
                plants = serving.get(1 - instance);
            }
            try {
                int status = HTTP.send(PlantRequests.create(plants, TOKEN, PlantRequests.plantJson(id,
                        "Plant " + id)).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == 200) {
                    acknowledged.add(id);
                } else if (status != 503) {
                    otherAnswers.put(id, status);
                }
            } catch (IOException e) {
                // No answer: the instance stopped under the request. Its outcome is unknown, as for any client.
            }
            return true;
        }

        void awaitAcknowledged(int count) throws Exception {
            assertTrue(Poll.until(Duration.ofSeconds(60), Duration.ofMillis(20), () -> acknowledged.size() >= count),
                    "the clients had " + count + " creates acknowledged");
        }

        void stop() throws InterruptedException {
            if (clients != null) {
                clients.close();
            }
        }
    }
}
