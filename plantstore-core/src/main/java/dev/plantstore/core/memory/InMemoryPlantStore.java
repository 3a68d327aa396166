package dev.plantstore.core.memory;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link PlantStore} in this process's memory. {@link PlantTable}'s {@code putIfAbsent} and {@code remove} are atomic
 * under the lock of the id's segment, which gives the create-once and delete-once the interface promises.
 *
 * <p>Plants are kept packed ({@link PackedPlant}), with tags shared through {@link SharedTags}, in a table of
 * primitive ids: at a million plants with short names that is about a quarter of the heap of a
 * {@code ConcurrentHashMap} of {@link Plant} records, and one object per plant for the garbage collector to copy.
 */
public final class InMemoryPlantStore implements PlantStore {

    /** Enough for any realistic set of plant types; beyond it, tags are kept with each plant. */
    static final int SHARED_TAG_CAPACITY = 1024;

    /** Enough stripes that writers of different ids seldom wait for each other while events are recorded. */
    private static final int EVENT_LOCK_STRIPES = 64;

    private final PlantTable plants = new PlantTable();
    private final SharedTags sharedTags = new SharedTags(SHARED_TAG_CAPACITY);
    /** Null when nobody receives events: then a write takes no lock beyond the table's own. */
    private final MemoryOutbox outbox;
    private final Object[] eventLocks;

    public InMemoryPlantStore() {
        this(null);
    }

    /**
     * A store that records an event in {@code outbox} for each write that takes effect. A write and its event happen
     * under the lock of the id's stripe, so the events of one id are recorded in the order its writes took effect.
     */
    public InMemoryPlantStore(MemoryOutbox outbox) {
        this.outbox = outbox;
        this.eventLocks = new Object[outbox == null ? 0 : EVENT_LOCK_STRIPES];
        for (int i = 0; i < eventLocks.length; i++) {
            eventLocks[i] = new Object();
        }
    }

    @Override
    public CreateResult create(NewPlant newPlant) {
        return create(newPlant, Optional.empty());
    }

    @Override
    public CreateResult create(NewPlant newPlant, TraceContext trace) {
        return create(newPlant, Optional.of(trace));
    }

    private CreateResult create(NewPlant newPlant, Optional<TraceContext> trace) {
        Objects.requireNonNull(newPlant, "null newPlant");
        if (outbox == null) {
            return put(newPlant);
        }
        synchronized (eventLock(newPlant.id())) {
            outbox.ensureRoom();
            CreateResult result = put(newPlant);
            if (result instanceof CreateResult.Created created) {
                outbox.record(PlantEvent.CREATED, newPlant.id(), created.plant(), trace);
            }
            return result;
        }
    }

    private CreateResult put(NewPlant newPlant) {
        Plant plant = newPlant.plant();
        byte[] stored = plants.putIfAbsent(newPlant.id(), PackedPlant.pack(plant, sharedTags));
        if (stored == null) {
            return new CreateResult.Created(plant);
        }
        // A packed plant is never changed once stored, so the one that refused this create is still what it holds.
        Plant existing = PackedPlant.unpack(stored, sharedTags);
        return existing.equals(plant)
                ? new CreateResult.AlreadyStored(existing)
                : new CreateResult.Duplicate(newPlant.id());
    }

    @Override
    public boolean delete(long id) {
        return delete(id, Optional.empty());
    }

    @Override
    public boolean delete(long id, TraceContext trace) {
        return delete(id, Optional.of(trace));
    }

    private boolean delete(long id, Optional<TraceContext> trace) {
        if (outbox == null) {
            return plants.remove(id) != null;
        }
        synchronized (eventLock(id)) {
            outbox.ensureRoom();
            boolean removed = plants.remove(id) != null;
            if (removed) {
                outbox.record(PlantEvent.DELETED, id, null, trace);
            }
            return removed;
        }
    }

    private Object eventLock(long id) {
        return eventLocks[(int) Math.floorMod(id, (long) EVENT_LOCK_STRIPES)];
    }

    @Override
    public Optional<Plant> find(long id) {
        return Optional.ofNullable(plants.get(id)).map(packed -> PackedPlant.unpack(packed, sharedTags));
    }
}
