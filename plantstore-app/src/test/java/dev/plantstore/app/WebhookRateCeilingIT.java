package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.ClosedLoopClients;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import dev.plantstore.testkit.WebhookReceiver.Received;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A receiver with a ceiling ({@code #rate=50}) under a closed-loop create load as fast as the machine goes (thousands a
 * second on an idle one): no second of its requests holds more than the ceiling, writes do not wait for it, and every
 * event reaches it once the load is over.
 */
@Tag("heavy")
@Tag("alone")
class WebhookRateCeilingIT {

    private static final String TOKEN = "rate-ceiling-token";
    private static final int CEILING = 50;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** Creates of the load: 40 s of requests at the ceiling. */
    private static final int CREATES = 2_000;
    private static final int LOAD_CLIENTS = 64;
    /** Beyond the drain at the ceiling, however slow the machine. */
    private static final Duration MARGIN = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(200);

    @TempDir
    Path dir;

    @AutoClose
    private final WebhookReceiver receiver = WebhookReceiver.onFreePort();

    @Test
    void aReceiverWithACeilingOf50NeverGetsMoreThan50RequestsInAnySecondAndGetsEveryEvent() throws Exception {
        Map<String, String> env = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_WEBHOOK_SECRET", WebhooksIT.SECRET,
                "PLANTSTORE_WEBHOOK_URL", receiver.url() + "#rate=" + CEILING);
        try (var jar = RunningJar.start(dir, env, "--store", "sqlite:" + dir.resolve("plants.db"))) {
            Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
            var nextId = new AtomicLong();
            long started = System.nanoTime();
            ClosedLoopClients.runUntilDone("rate-client", LOAD_CLIENTS, (client, step) -> {
                long id = nextId.incrementAndGet();
                if (id > CREATES) {
                    return false;
                }
                if (HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN, PlantRequests.plantJson(id, "P" + id))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    acknowledged.add(id);
                }
                return true;
            });
            double createsPerSecond = acknowledged.size() / (Math.max(1, System.nanoTime() - started) / 1e9);
            System.out.printf("%d creates at %.0f a second to a receiver of at most %d requests a second%n",
                    acknowledged.size(), createsPerSecond, CEILING);
            // Writes go at their own pace, however slow the machine, not at the receiver's.
            assertTrue(createsPerSecond > CEILING, String.format("writes waited for the receiver at its ceiling: "
                    + "%.0f creates a second", createsPerSecond));
            Duration drain = Duration.ofSeconds(acknowledged.size() / CEILING).plus(MARGIN);
            assertTrue(Poll.until(drain, LOOK, () -> createdIds().containsAll(acknowledged)),
                    () -> createdIds().size() + " of " + acknowledged.size() + " events arrived within " + drain);
        }
        List<Long> arrivals = receiver.received().stream().map(Received::arrivedAtNanos).sorted().toList();
        int most = 0;
        int first = 0;
        for (int last = 0; last < arrivals.size(); last++) {
            while (arrivals.get(last) - arrivals.get(first) >= Duration.ofSeconds(1).toNanos()) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        System.out.printf("%d requests, at most %d within a second%n", arrivals.size(), most);
        assertTrue(most <= CEILING, most + " requests arrived within one second");
    }

    private Set<Long> createdIds() {
        return receiver.accepted().stream().filter(request -> request.type().equals("plant.created"))
                .map(Received::plantId).collect(Collectors.toSet());
    }
}
