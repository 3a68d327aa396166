package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.Webhooks;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import dev.plantstore.testkit.WebhookReceiver;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A receiver's events are filed under its scheme, host, port and path: no password or query of its URL reaches the
 * database, and its pending events follow it when those change. Through the public API, so the store finds the
 * delivery as a service.
 */
class ReceiverKeyTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void noCredentialOfAReceiverUrlReachesTheDatabaseAndPendingEventsFollowANewOne(@TempDir Path dir)
            throws Exception {
        int port = Sockets.freePort();
        URI before = URI.create("http://alice:S3cretPw@127.0.0.1:" + port + "/hook?token=T0kenSecret");
        Path file = dir.resolve("plants.db");
        var failed = new AtomicInteger();
        try (PlantStore store = open(file, before, new WebhookListener() {
            @Override
            public void attempted(URI to, Outcome outcome) {
                failed.incrementAndGet();
            }
        })) {
            for (long id = 1; id <= 5; id++) {
                store.create(new NewPlant(id, "Plant " + id));
            }
            // Each event's attempt has failed and is due again: none is left leased to this instance when it stops.
            assertTrue(Poll.until(Duration.ofSeconds(30), Duration.ofMillis(20), () -> failed.get() >= 5));
        }
        for (Path written : filesOf(dir)) {
            String bytes = new String(Files.readAllBytes(written), StandardCharsets.ISO_8859_1);
            assertFalse(bytes.contains("S3cretPw") || bytes.contains("T0kenSecret") || bytes.contains("alice"),
                    written + " holds a credential of the receiver's URL");
        }
        try (var receiver = new WebhookReceiver(port)) {
            URI after = URI.create("http://bob:0therPw@127.0.0.1:" + port + "/hook?token=N3wToken");
            try (PlantStore store = open(file, after)) {
                assertTrue(Poll.until(Duration.ofSeconds(30), Duration.ofMillis(20),
                        () -> receiver.accepted().size() == 5), "the pending events went to the receiver's new URL");
                assertTrue(receiver.accepted().stream().allMatch(request -> request.query().equals("token=N3wToken")),
                        "with its new query");
                store.create(new NewPlant(6, "Plant 6"));
            }
        }
    }

    private static PlantStore open(Path file, URI receiver) {
        return open(file, receiver, WebhookListener.NONE);
    }

    private static PlantStore open(Path file, URI receiver, WebhookListener listener) {
        return PlantStores.jdbc(DurableSqlite.dataSource(file), JdbcStoreSettings.defaults()
                .withWebhooks(Webhooks.to(List.of(receiver), SECRET).withListener(listener)));
    }

    private static List<Path> filesOf(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }
}
