package dev.plantstore.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantEventsContract;
import dev.plantstore.core.webhooks.PlantEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory store's writes and its delivery share no lock: a write never waits for a claim or a settling, however
 * long the backlog they walk. The JVM's flight recorder sees every time a thread blocks on a monitor or parks, and
 * which thread held the monitor.
 */
class MemoryOutboxLocksTest {

    private static final String RECEIVER = PlantEventsContract.RECEIVERS.get(0);
    /** Events the delivery walks on every claim, none of them due: the longer the walk, the longer a lock is held. */
    private static final int BACKLOG = 20_000;
    private static final int WRITES = 20_000;

    @TempDir
    Path recordings;

    @Test
    void aWriteNeverBlocksOnALockWhileTheDeliveryClaimsAndSettles() throws Exception {
        var outbox = new MemoryOutbox(List.of(RECEIVER));
        var store = new InMemoryPlantStore(outbox);
        for (long id = 1; id <= BACKLOG; id++) {
            store.create(new NewPlant(id, "Fern"));
        }
        long now = System.currentTimeMillis();
        outbox.reschedule(outbox.claim(RECEIVER, now, BACKLOG), now + Duration.ofHours(1).toMillis(), false);

        var writing = new AtomicBoolean(true);
        var claims = new AtomicLong();
        var delivered = new AtomicLong();
        var delivery = new Thread(() -> {
            while (writing.get()) {
                List<PlantEvent> claimed = outbox.claim(RECEIVER, System.currentTimeMillis(), 128);
                outbox.delivered(claimed);
                claims.incrementAndGet();
                delivered.addAndGet(claimed.size());
            }
        }, "delivery");
        Path file = recordings.resolve("writes.jfr");
        try (var recording = new Recording()) {
            recording.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            delivery.start();
            for (long id = BACKLOG + 1; id <= BACKLOG + WRITES; id++) {
                assertInstanceOf(CreateResult.Created.class, store.create(new NewPlant(id, "Fern")));
            }
            writing.set(false);
            delivery.join();
            recording.stop();
            recording.dump(file);
        }

        assertTrue(claims.get() > 0, "the delivery claimed while the writes went on");
        List<RecordedEvent> waits = RecordingFile.readAllEvents(file).stream()
                .filter(MemoryOutboxLocksTest::inAWrite)
                .toList();
        Duration longest = waits.stream().map(RecordedEvent::getDuration).max(Duration::compareTo)
                .orElse(Duration.ZERO);
        assertEquals(List.of(), waits.stream().map(MemoryOutboxLocksTest::waitedOn).distinct().toList(),
                "what the writes waited for, " + waits.size() + " times, at most " + longest);
        assertEquals(BACKLOG + WRITES, outbox.backlogs().counted(RECEIVER).pending() + delivered.get(),
                "every write's event is pending or delivered");
    }

    /** Waited for inside a create, on whichever thread: the test's own joins and the recorder's work do not count. */
    private static boolean inAWrite(RecordedEvent event) {
        return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                .anyMatch(frame -> frame.getMethod().getType().getName().equals(InMemoryPlantStore.class.getName())
                        && frame.getMethod().getName().equals("create"));
    }

    private static String waitedOn(RecordedEvent event) {
        String held = event.hasField("monitorClass") ? event.getClass("monitorClass").getName()
                : event.hasField("parkedClass") && event.getClass("parkedClass") != null
                        ? event.getClass("parkedClass").getName() : "an object";
        return event.getEventType().getName() + " on " + held;
    }
}
