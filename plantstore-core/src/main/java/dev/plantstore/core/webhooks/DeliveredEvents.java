package dev.plantstore.core.webhooks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivered events on their way out of the outbox, many at a time: once {@value #BATCH} wait, every
 * {@link #REMOVE_EVERY}, and before a claim, which must see each plant's delivered event gone before it takes the
 * next. A statement per answer would cost the store a write each time; on SQLite, one between the writer's batches.
 * Used by one worker's thread.
 */
public final class DeliveredEvents {

    /** How often delivered events leave the outbox, at least. */
    public static final Duration REMOVE_EVERY = Duration.ofMillis(100);
    private static final int BATCH = 1_024;

    private final Outbox outbox;
    private final List<PlantEvent> waiting = new ArrayList<>();
    private long lastRemovalNanos = System.nanoTime();

    public DeliveredEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    public void add(PlantEvent event) {
        waiting.add(event);
    }

    /** Removes the waiting events once a batch is full or {@link #REMOVE_EVERY} has passed; true if it removed any. */
    public boolean removeWhenDue() {
        if (waiting.size() >= BATCH || System.nanoTime() - lastRemovalNanos >= REMOVE_EVERY.toNanos()) {
            return removeNow();
        }
        return false;
    }

    /** Removes the waiting events now; true if there were any. */
    public boolean removeNow() {
        lastRemovalNanos = System.nanoTime();
        if (waiting.isEmpty()) {
            return false;
        }
        outbox.delivered(waiting);
        waiting.clear();
        return true;
    }
}
