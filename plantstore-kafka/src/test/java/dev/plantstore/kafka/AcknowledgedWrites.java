package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.testkit.KafkaBroker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A load of writes on a thread of its own, as fast as the store takes them: creates of new ids, every third one
 * deleted again. It keeps each write the store acknowledged, to hold the topic to them once the faults are over.
 */
final class AcknowledgedWrites implements AutoCloseable {

    private final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    private final Thread writer;
    private volatile boolean writing = true;

    private AcknowledgedWrites(PlantStore store) {
        this.writer = new Thread(() -> {
            int id = 0;
            while (writing) {
                id++;
                store.create(new NewPlant(id, "Plant " + id));
                acknowledged.add(id + " plant.created");
                if (id % 3 == 0) {
                    store.delete(id);
                    acknowledged.add(id + " plant.deleted");
                }
            }
        }, "acknowledged writes");
    }

    static AcknowledgedWrites start(PlantStore store) {
        var writes = new AcknowledgedWrites(store);
        writes.writer.start();
        return writes;
    }

    /** Writes acknowledged so far. */
    int count() {
        return acknowledged.size();
    }

    /** Ends the load after the write under way; a store closed under it would fail that write. */
    void stop() {
        writing = false;
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Holds {@code records}, read back from the topic, to the writes acknowledged: each one there, a duplicate only as
     * the same event (its {@code ce_id}), and each plant's events in the order of its writes.
     */
    void assertEachOnTheTopicInOrder(List<KafkaBroker.Event> records) {
        Map<String, String> eventById = new HashMap<>();
        Map<String, List<String>> perPlant = new LinkedHashMap<>();
        for (var record : records) {
            String event = record.header("ce_type") + " " + record.key();
            String seen = eventById.putIfAbsent(record.header("ce_id"), event);
            if (seen == null) {
                perPlant.computeIfAbsent(record.key(), key -> new ArrayList<>())
                        .add(record.key() + " " + record.header("ce_type"));
            } else {
                assertEquals(seen, event, "a duplicate differs from its first");
            }
        }
        List<String> delivered = perPlant.values().stream().flatMap(List::stream).sorted().toList();
        assertEquals(acknowledged.stream().sorted().toList(), delivered);
        perPlant.forEach((plant, events) -> assertEquals(events.get(0), plant + " plant.created",
                "plant " + plant + "'s events came as " + events));
    }
}
