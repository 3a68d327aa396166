package dev.plantstore.core.memory;

import dev.plantstore.core.Plant;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The outbox of the in-memory store: in this process's memory like its plants, so the events still pending are lost
 * with them on exit. At most {@value #CAPACITY} events wait per receiver: a write that would record one more is
 * refused ({@link StoreUnavailableException}) and changes nothing, so that a receiver that is down cannot exhaust the
 * heap and no acknowledged write goes without its event. An event given up on is dropped: no operator's command
 * reaches a store in memory to list it or send it again.
 */
public final class MemoryOutbox implements Outbox, Backlogs {

    static final int CAPACITY = 100_000;

    private static final class Entry {
        final PlantEvent event;
        int attempts;
        long dueAtMillis;
        long leasedUntilMillis;

        Entry(PlantEvent event) {
            this.event = event;
        }

        /** The event with its attempts and lease as they are now. */
        PlantEvent withAttempts() {
            return new PlantEvent(event.seq(), event.receiver(), event.plantId(), event.type(), event.plant(),
                    event.recordedAtMillis(), attempts, leasedUntilMillis, event.retryFromMillis(), event.trace());
        }
    }

    private final Map<String, TreeMap<Long, Entry>> pending = new HashMap<>();
    private long lastSeq;
    private final CommittedEvents committed = new CommittedEvents();

    public MemoryOutbox(List<String> receivers) {
        for (String receiver : receivers) {
            pending.put(receiver, new TreeMap<>());
        }
    }

    /**
     * Refuses a write whose event would not fit: called before the write, under the plant id's lock, so a refused write
     * changes nothing. Writes of other ids may pass at the same moment, so the bound holds to within a few events.
     */
    synchronized void ensureRoom() {
        for (var receiver : pending.entrySet()) {
            if (receiver.getValue().size() >= CAPACITY) {
                throw new StoreUnavailableException("the webhook events waiting for "
                        + receiver.getKey() + " have reached the in-memory "
                        + "store's limit of " + CAPACITY);
            }
        }
    }

    /**
     * Where each write publishes that it recorded events, for a delivery to subscribe to. Its events are never leased
     * here on recording: a claim takes them, in memory too.
     */
    @Override
    public CommittedEvents committed() {
        return committed;
    }

    /** Records one event for every receiver; the caller holds the plant id's lock, so events of an id keep order. */
    void record(String type, long plantId, Plant plant, Optional<TraceContext> trace) {
        long now = System.currentTimeMillis();
        synchronized (this) {
            for (var receiver : pending.entrySet()) {
                long seq = ++lastSeq;
                receiver.getValue().put(seq,
                        new Entry(new PlantEvent(seq, receiver.getKey(), plantId, type, plant, now, 0, 0, now, trace)));
            }
        }
        committed.publish(List.of(), true);
    }

    @Override
    public synchronized List<PlantEvent> claim(String receiver, long nowMillis, int max) {
        List<PlantEvent> claimed = new ArrayList<>();
        Set<Long> earlierPending = new HashSet<>();
        for (Entry entry : pending.get(receiver).values()) {
            if (claimed.size() == max) {
                break;
            }
            if (earlierPending.add(entry.event.plantId())
                    && entry.dueAtMillis <= nowMillis && entry.leasedUntilMillis <= nowMillis) {
                entry.leasedUntilMillis = nowMillis + LEASE.toMillis();
                claimed.add(entry.withAttempts());
            }
        }
        return claimed;
    }

    @Override
    public synchronized void delivered(List<PlantEvent> events) {
        for (PlantEvent event : events) {
            pending.get(event.receiver()).remove(event.seq());
        }
    }

    @Override
    public synchronized void reschedule(List<PlantEvent> events, long dueAtMillis, boolean afterFailure) {
        for (PlantEvent event : events) {
            Entry entry = pending.get(event.receiver()).get(event.seq());
            if (entry != null) {
                entry.attempts += afterFailure ? 1 : 0;
                entry.dueAtMillis = dueAtMillis;
                entry.leasedUntilMillis = 0;
            }
        }
    }

    @Override
    public synchronized void giveUp(List<PlantEvent> events) {
        delivered(events);
    }

    @Override
    public Backlogs backlogs() {
        return this;
    }

    @Override
    public synchronized Backlog counted(String receiver) {
        return new Backlog(pending.get(receiver).size(), oldestRecordedAt(receiver));
    }

    @Override
    public Optional<Backlog> withoutScan(String receiver) {
        return Optional.of(counted(receiver));
    }

    @Override
    public synchronized long oldestRecordedAt(String receiver) {
        TreeMap<Long, Entry> events = pending.get(receiver);
        return events.isEmpty() ? 0 : events.firstEntry().getValue().event.recordedAtMillis();
    }
}
