package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.DeliveredEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where one receiver's events come from, and where the delivered ones go back. The events a batch of this process
 * recorded and leased to it arrive in memory as soon as the batch has committed, and are sent at once; their rows stay
 * the durable record. Every other event (recorded by another instance, left by a restart, due for a retry, or recorded
 * while the worker was not taking events in memory) is claimed from the outbox, each the earliest pending one of its
 * plant id, so that the events of an id arrive in order while other ids go ahead. An event is recorded leased only when
 * no earlier event of its plant is pending, so the two ways never reorder a plant's events. Delivered events leave the
 * outbox in batches.
 */
final class ReceiverFeed {

    /** Events recorded by this process that wait in memory, at most. */
    static final int WAITING_IN_MEMORY = 8_192;
    /** How often an idle worker looks for events that another instance recorded, or whose retry fell due. */
    static final Duration IDLE_LOOK = Duration.ofSeconds(1);
    /**
     * An event that waited in memory longer than this shows the worker is behind: the receiver's events then go
     * through the table, oldest first, until the worker has caught up.
     */
    private static final Duration LONGEST_WAIT_IN_MEMORY = Duration.ofSeconds(5);

    private final String key;
    private final Outbox outbox;
    /** Events this process recorded and leased, in the order their batches committed. */
    private final Queue<PlantEvent> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final DeliveredEvents delivered;
    /** True while the outbox may hold claimable events: at start, and after others were recorded. */
    private volatile boolean claimWanted = true;
    private long nextLookMillis;

    ReceiverFeed(String key, Outbox outbox) {
        this.key = key;
        this.outbox = outbox;
        this.delivered = new DeliveredEvents(outbox);
    }

    /** Whether more events recorded by this process fit in memory. */
    boolean hasRoomInMemory() {
        return waitingCount.get() < WAITING_IN_MEMORY;
    }

    /** An event this process recorded and leased to the worker; returns false once memory is full. */
    boolean take(PlantEvent event) {
        waiting.add(event);
        return waitingCount.incrementAndGet() < WAITING_IN_MEMORY;
    }

    /** A batch left events to a claim. */
    void othersRecorded() {
        claimWanted = true;
    }

    boolean claimWanted() {
        return claimWanted;
    }

    /** Whether a claim is wanted, or the idle look is due. */
    boolean claimDue(long now) {
        return claimWanted || now >= nextLookMillis;
    }

    long nextLookMillis() {
        return nextLookMillis;
    }

    /** Claims up to {@code max} events, after the delivered ones have left the outbox; a full page wants another. */
    List<PlantEvent> claim(long now, int max) {
        removeDelivered();
        claimWanted = false;
        nextLookMillis = now + IDLE_LOOK.toMillis();
        List<PlantEvent> page = outbox.claim(key, now, max);
        if (page.size() == max) {
            claimWanted = true;
        }
        return page;
    }

    /** One event for a probe of a failing receiver, or none. */
    List<PlantEvent> claimOne(long now) {
        removeDelivered();
        return outbox.claim(key, now, 1);
    }

    boolean nothingInMemory() {
        return waiting.isEmpty();
    }

    /**
     * The next event waiting in memory, or null: none waits, or the worker fell behind (the event waited too long, or
     * memory is full), and {@code health} is told so; then every event in memory is freed to be claimed, oldest first.
     */
    PlantEvent nextInMemory(long now, ReceiverHealth health) {
        PlantEvent event = waiting.poll();
        if (event == null) {
            return null;
        }
        waitingCount.decrementAndGet();
        if (now - event.recordedAtMillis() > LONGEST_WAIT_IN_MEMORY.toMillis()
                || waitingCount.get() >= WAITING_IN_MEMORY) {
            health.fellBehind();
            claimWanted = true;
            List<PlantEvent> freed = new ArrayList<>();
            freed.add(event);
            drainWaitingInto(freed);
            outbox.reschedule(freed, 0, false);
            return null;
        }
        return event;
    }

    /**
     * The events of a database store not yet sent: those waiting in memory or, once the worker fell behind and takes
     * them from the table, more than the pacing's room since the oldest pending one ({@code oldestPendingMillis}, as
     * last read).
     */
    Backlogs.Backlog unsentOfThisProcess(ReceiverHealth.State state, long oldestPendingMillis) {
        if (state != ReceiverHealth.State.KEEPING_UP) {
            long unsent = oldestPendingMillis == 0 ? 0 : DeliveryLimits.UNSENT_ROOM + 1L;
            return new Backlogs.Backlog(unsent, oldestPendingMillis);
        }
        PlantEvent oldest = waiting.peek();
        return new Backlogs.Backlog(waitingCount.get(), oldest == null ? 0 : oldest.recordedAtMillis());
    }

    /** Frees the events waiting in memory to be claimed. */
    void releaseWaiting() {
        List<PlantEvent> freed = new ArrayList<>();
        drainWaitingInto(freed);
        if (!freed.isEmpty()) {
            outbox.reschedule(freed, 0, false);
        }
    }

    /** Forgets the events waiting in memory: the outbox gave them up with their receiver turned off. */
    void dropWaiting() {
        drainWaitingInto(new ArrayList<>());
    }

    private void drainWaitingInto(List<PlantEvent> events) {
        PlantEvent event;
        while ((event = waiting.poll()) != null) {
            waitingCount.decrementAndGet();
            events.add(event);
        }
    }

    /** The receiver has {@code event}: it leaves the outbox with the next batch of removals. */
    void delivered(PlantEvent event) {
        delivered.add(event);
    }

    /** Removes the delivered events when a batch of them is due ({@link DeliveredEvents}). */
    void removeDeliveredWhenDue() {
        if (delivered.removeWhenDue()) {
            claimWanted = true;
        }
    }

    /**
     * Removes the delivered events now, as before a claim; then the events of their plants that waited behind them
     * may go, so the next turn claims.
     */
    void removeDelivered() {
        if (delivered.removeNow()) {
            claimWanted = true;
        }
    }
}
