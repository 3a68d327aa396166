package dev.plantstore.core.memory;

/**
 * The in-memory store's map from id to packed plant: open addressing over a {@code long[]} of ids and an array of
 * plants, split into segments that each have their own lock. A plant costs its packed array and about 25 bytes of
 * slots, one object where a {@code ConcurrentHashMap<Long, byte[]>} needs three (entry, boxed id, array): with a
 * million plants held, the young collections that copy new plants take a third of the time, and the heap half.
 *
 * <p>Linear probing; a removal shifts the rest of its cluster back instead of leaving a marker, so lookups never slow
 * down with churn. Tables grow at two-thirds full and never shrink: a store's memory follows its peak.
 */
final class PlantTable {

    /** Enough segments that threads on a many-core machine rarely wait for one another; a power of two. */
    private static final int SEGMENT_BITS = 6;
    private static final int INITIAL_CAPACITY = 16;

    private final Segment[] segments = new Segment[1 << SEGMENT_BITS];

    PlantTable() {
        for (int i = 0; i < segments.length; i++) {
            segments[i] = new Segment();
        }
    }

    /** Stores the plant unless the id is taken; returns the plant already there, or null when stored. */
    byte[] putIfAbsent(long id, byte[] plant) {
        long hash = mix(id);
        return segment(hash).putIfAbsent(id, hash, plant);
    }

    /** Removes and returns the plant with this id, or null when there is none. */
    byte[] remove(long id) {
        long hash = mix(id);
        return segment(hash).remove(id, hash);
    }

    byte[] get(long id) {
        long hash = mix(id);
        return segment(hash).get(id, hash);
    }

    private Segment segment(long hash) {
        return segments[(int) (hash >>> (Long.SIZE - SEGMENT_BITS))];
    }

    /** Clients number plants 1, 2, 3...: spread the bits so that neighbours land apart (MurmurHash3's finaliser). */
    static long mix(long id) {
        long h = id;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    private static final class Segment {

        private long[] ids = new long[INITIAL_CAPACITY];
        /** A null plant marks an empty slot: every long is a valid id, so the ids cannot mark one. */
        private byte[][] plants = new byte[INITIAL_CAPACITY][];
        private int size;

        synchronized byte[] get(long id, long hash) {
            int mask = ids.length - 1;
            for (int slot = (int) hash & mask; plants[slot] != null; slot = (slot + 1) & mask) {
                if (ids[slot] == id) {
                    return plants[slot];
                }
            }
            return null;
        }

        synchronized byte[] putIfAbsent(long id, long hash, byte[] plant) {
            int mask = ids.length - 1;
            int slot = (int) hash & mask;
            for (; plants[slot] != null; slot = (slot + 1) & mask) {
                if (ids[slot] == id) {
                    return plants[slot];
                }
            }
            ids[slot] = id;
            plants[slot] = plant;
            size++;
            if (size * 3 > ids.length * 2) {
                grow();
            }
            return null;
        }

        synchronized byte[] remove(long id, long hash) {
            int mask = ids.length - 1;
            for (int slot = (int) hash & mask; plants[slot] != null; slot = (slot + 1) & mask) {
                if (ids[slot] == id) {
                    byte[] removed = plants[slot];
                    closeGap(slot);
                    size--;
                    return removed;
                }
            }
            return null;
        }

        /**
         * Empties {@code gap} by moving back each later entry of its cluster that may sit there: one whose home slot
         * is not between the gap and where it is now. Every entry stays reachable from its home without a marker.
         */
        private void closeGap(int gap) {
            int mask = ids.length - 1;
            for (int slot = (gap + 1) & mask; plants[slot] != null; slot = (slot + 1) & mask) {
                int home = (int) mix(ids[slot]) & mask;
                if (((slot - home) & mask) >= ((slot - gap) & mask)) {
                    ids[gap] = ids[slot];
                    plants[gap] = plants[slot];
                    gap = slot;
                }
            }
            plants[gap] = null;
        }

        private void grow() {
            long[] oldIds = ids;
            byte[][] oldPlants = plants;
            ids = new long[oldIds.length * 2];
            plants = new byte[oldIds.length * 2][];
            int mask = ids.length - 1;
            for (int i = 0; i < oldIds.length; i++) {
                if (oldPlants[i] != null) {
                    int slot = (int) mix(oldIds[i]) & mask;
                    while (plants[slot] != null) {
                        slot = (slot + 1) & mask;
                    }
                    ids[slot] = oldIds[i];
                    plants[slot] = oldPlants[i];
                }
            }
        }
    }
}
