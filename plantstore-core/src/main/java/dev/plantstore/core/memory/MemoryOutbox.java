package dev.plantstore.core.memory;

import dev.plantstore.core.Plant;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The outbox of the in-memory store: in this process's memory like its plants, so the events still pending are lost
 * with them on exit. At most {@value #CAPACITY} events wait per receiver: a write that would record one more is
 * refused ({@link StoreUnavailableException}) and changes nothing, so that a receiver that is down cannot exhaust the
 * heap and no acknowledged write goes without its event. An event given up on is dropped: no operator's command
 * reaches a store in memory to list it or send it again.
 *
 * <p>Writes and the delivery share no lock: a write adds its event to a receiver's queue of recorded events, which
 * takes no lock, and the delivery moves what it finds there into the events it claims from and settles, under a lock
 * of that receiver's that only the delivery takes. A claim that walks a long backlog holds up no write.
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

    /** One receiver's events: as writes record them, and as the delivery holds them, under this object's lock. */
    private static final class ReceiverEvents {
        /** Events recorded and not yet seen by the delivery, in the order of each plant id's writes. */
        final Queue<PlantEvent> recorded = new ConcurrentLinkedQueue<>();
        /** Events recorded and not yet settled as delivered or given up on: what the bound applies to. */
        final AtomicInteger waiting = new AtomicInteger();
        /** By seq; only under this object's lock. */
        final TreeMap<Long, Entry> held = new TreeMap<>();

        /** Takes in what writes recorded since the last look; the caller holds this object's lock. */
        TreeMap<Long, Entry> current() {
            for (PlantEvent event = recorded.poll(); event != null; event = recorded.poll()) {
                held.put(event.seq(), new Entry(event));
            }
            return held;
        }

        void settled(long seq) {
            if (held.remove(seq) != null) {
                waiting.decrementAndGet();
            }
        }
    }

    private final Map<String, ReceiverEvents> receivers;
    /** Receivers turned off after a {@code 410 Gone}: until the process ends, as nothing else can turn them on. */
    private final Set<String> off = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastSeq = new AtomicLong();
    private final CommittedEvents committed = new CommittedEvents();

    public MemoryOutbox(List<String> receivers) {
        var byName = new LinkedHashMap<String, ReceiverEvents>();
        for (String receiver : receivers) {
            byName.put(receiver, new ReceiverEvents());
        }
        this.receivers = Collections.unmodifiableMap(byName);
    }

    /**
     * Refuses a write whose event would not fit: called before the write, under the plant id's lock, so a refused write
     * changes nothing. Writes of other ids may pass at the same moment, so the bound holds to within a few events.
     */
    void ensureRoom() {
        for (var receiver : receivers.entrySet()) {
            if (receiver.getValue().waiting.get() >= CAPACITY) {
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

    /**
     * Records one event for every receiver; the caller holds the plant id's lock, so the events of an id are queued,
     * and numbered, in the order of its writes.
     */
    void record(String type, long plantId, Plant plant, Optional<TraceContext> trace) {
        long now = System.currentTimeMillis();
        for (var receiver : receivers.entrySet()) {
            if (off.contains(receiver.getKey())) {
                continue;
            }
            long seq = lastSeq.incrementAndGet();
            ReceiverEvents events = receiver.getValue();
            events.waiting.incrementAndGet();
            events.recorded.add(new PlantEvent(seq, receiver.getKey(), plantId, type, plant, now, 0, 0, now, trace));
        }
        committed.publish(List.of(), true);
    }

    @Override
    public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
        ReceiverEvents events = receivers.get(receiver);
        List<PlantEvent> claimed = new ArrayList<>();
        Set<Long> earlierPending = new HashSet<>();
        synchronized (events) {
            for (Entry entry : events.current().values()) {
                if (claimed.size() == max) {
                    break;
                }
                if (earlierPending.add(entry.event.plantId())
                        && entry.dueAtMillis <= nowMillis && entry.leasedUntilMillis <= nowMillis) {
                    entry.leasedUntilMillis = nowMillis + LEASE.toMillis();
                    claimed.add(entry.withAttempts());
                }
            }
        }
        return claimed;
    }

    @Override
    public void delivered(List<PlantEvent> events) {
        for (PlantEvent event : events) {
            ReceiverEvents of = receivers.get(event.receiver());
            synchronized (of) {
                of.settled(event.seq());
            }
        }
    }

    @Override
    public void reschedule(List<PlantEvent> events, long dueAtMillis, boolean afterFailure) {
        for (PlantEvent event : events) {
            ReceiverEvents of = receivers.get(event.receiver());
            synchronized (of) {
                Entry entry = of.held.get(event.seq());
                if (entry != null) {
                    entry.attempts += afterFailure ? 1 : 0;
                    entry.dueAtMillis = dueAtMillis;
                    entry.leasedUntilMillis = 0;
                }
            }
        }
    }

    @Override
    public void giveUp(List<PlantEvent> events) {
        delivered(events);
    }

    /** Its pending events are dropped, as those given up on are. */
    @Override
    public int turnOff(String receiver, long nowMillis) {
        off.add(receiver);
        ReceiverEvents events = receivers.get(receiver);
        synchronized (events) {
            TreeMap<Long, Entry> held = events.current();
            int dropped = held.size();
            List.copyOf(held.keySet()).forEach(events::settled);
            return dropped;
        }
    }

    @Override
    public boolean isOff(String receiver) {
        return off.contains(receiver);
    }

    @Override
    public Backlogs backlogs() {
        return this;
    }

    @Override
    public Backlog counted(String receiver) {
        ReceiverEvents events = receivers.get(receiver);
        synchronized (events) {
            return new Backlog(events.current().size(), oldest(events));
        }
    }

    @Override
    public Optional<Backlog> withoutScan(String receiver) {
        return Optional.of(counted(receiver));
    }

    @Override
    public long oldestRecordedAt(String receiver) {
        ReceiverEvents events = receivers.get(receiver);
        synchronized (events) {
            return oldest(events);
        }
    }

    private static long oldest(ReceiverEvents events) {
        TreeMap<Long, Entry> held = events.current();
        return held.isEmpty() ? 0 : held.firstEntry().getValue().event.recordedAtMillis();
    }
}
