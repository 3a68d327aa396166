package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.EventSink;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.Webhooks;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import dev.plantstore.webhooks.RecordingSinkProvider.RecordingSink;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A store with webhooks and another sink, each found as a service: every provider with a destination is started, and
 * each destination keeps its own place in the one outbox, so one that is down holds back no other.
 */
class SeveralSinksTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration LOOK = Duration.ofMillis(20);
    private static final int PLANTS = 20;

    @TempDir
    static Path dir;

    private WebhookReceiver receiver;
    private final List<PlantStore> stores = new ArrayList<>();

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() {
        stores.forEach(PlantStore::close);
        receiver.close();
    }

    /** How a test opens a store: in memory, or on SQLite in a file of its own. */
    static Stream<BiFunction<Webhooks, EventSink, PlantStore>> stores() {
        return Stream.of(
                (webhooks, sink) -> PlantStores.inMemory(webhooks, List.of(sink)),
                (webhooks, sink) -> PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve(sink.target().getHost()
                        + System.nanoTime() + ".db")), JdbcStoreSettings.defaults().withWebhooks(webhooks)
                        .withSink(sink)));
    }

    private PlantStore open(BiFunction<Webhooks, EventSink, PlantStore> opener, RecordingSink sink) {
        PlantStore store = opener.apply(Webhooks.to(List.of(receiver.url()), SECRET), sink);
        stores.add(store);
        return store;
    }

    private static List<String> createdAndDeleted(PlantStore store) {
        List<String> expected = new ArrayList<>();
        for (int id = 1; id <= PLANTS; id++) {
            store.create(new NewPlant(id, "Plant " + id));
            expected.add("plant.created " + id);
        }
        store.delete(1);
        expected.add("plant.deleted 1");
        return expected;
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aWebhookReceiverThatIsDownHoldsBackNoOtherSink(BiFunction<Webhooks, EventSink, PlantStore> opener)
            throws Exception {
        receiver.answer(503);
        var sink = new RecordingSink("beside-a-receiver-down");
        PlantStore store = open(opener, sink);
        List<String> expected = createdAndDeleted(store);
        assertTrue(Poll.until(WAIT, LOOK, () -> sink.taken().size() >= expected.size()), sink.taken().toString());
        assertEveryEventInOrderPerPlant(expected, sink.taken());
        assertTrue(Poll.until(WAIT, LOOK, () -> !receiver.received().isEmpty()), "the receiver was never tried");
        assertEquals(0, receiver.acceptedCount());

        receiver.answer(200);
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() >= expected.size()),
                "the receiver got " + receiver.acceptedCount() + " events once it was up again");
        assertEveryEventInOrderPerPlant(expected, receiver.accepted().stream()
                .map(received -> received.type() + " " + received.plantId()).distinct().toList());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aSinkThatRefusesHoldsBackNoWebhookReceiver(BiFunction<Webhooks, EventSink, PlantStore> opener)
            throws Exception {
        var sink = new RecordingSink("refusing");
        sink.refuse(true);
        PlantStore store = open(opener, sink);
        List<String> expected = createdAndDeleted(store);
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.acceptedCount() >= expected.size()),
                "the receiver got " + receiver.acceptedCount() + " events while the sink refused");
        assertEquals(List.of(), sink.taken());

        sink.refuse(false);
        assertTrue(Poll.until(WAIT, LOOK, () -> sink.taken().size() >= expected.size()), sink.taken().toString());
        assertEveryEventInOrderPerPlant(expected, sink.taken());
    }

    /** Each event once, and plant 1's create before its delete: the order promised is per plant. */
    private static void assertEveryEventInOrderPerPlant(List<String> expected, List<String> got) {
        assertEquals(expected.stream().sorted().toList(), got.stream().sorted().toList());
        assertTrue(got.indexOf("plant.created 1") < got.indexOf("plant.deleted 1"), got.toString());
    }

    @Test
    void aSinkWithoutAModuleToSendItIsRefusedNamingIt() {
        EventSink orphan = () -> URI.create("nowhere://sink/plant-events");
        var webhooks = Webhooks.to(List.of(receiver.url()), SECRET);
        var e = assertThrows(IllegalStateException.class, () -> PlantStores.inMemory(webhooks, List.of(orphan)));
        assertTrue(e.getMessage().contains("no module on the class path sends the events of "
                + "nowhere://sink/plant-events"), e.getMessage());
    }

    @Test
    void twoDestinationsWithOneTargetAreRefused() {
        var webhooks = Webhooks.to(List.of(receiver.url()), SECRET);
        var e = assertThrows(IllegalArgumentException.class, () -> PlantStores.inMemory(webhooks,
                List.of(new RecordingSink("twice"), new RecordingSink("twice"))));
        assertEquals("the events' destination recording://twice is given twice", e.getMessage());
    }
}
