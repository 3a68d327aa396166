package dev.plantstore.core.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PlantTableTest {

    private static byte[] plant(long id) {
        return Long.toString(id).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void anIdHoldsOnePlantUntilRemoved() {
        var table = new PlantTable();
        byte[] first = plant(1);
        assertNull(table.putIfAbsent(1, first));
        assertSame(first, table.putIfAbsent(1, plant(2)));
        assertSame(first, table.get(1));
        assertSame(first, table.remove(1));
        assertNull(table.get(1));
        assertNull(table.remove(1));
    }

    @Test
    void everyLongIsAnIdZeroAndTheExtremesIncluded() {
        var table = new PlantTable();
        for (long id : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            assertNull(table.putIfAbsent(id, plant(id)));
        }
        for (long id : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            assertArrayEquals(plant(id), table.get(id));
        }
    }

    /** Ids whose hashes share a segment and a home slot form one cluster; removing its head must not hide the rest. */
    @Test
    void removingFromAClusterKeepsTheRestReachable() {
        List<Long> colliding = new ArrayList<>();
        for (long id = 0; colliding.size() < 5; id++) {
            long hash = PlantTable.mix(id);
            if (hash >>> 58 == 0 && (hash & 15) == 3) {
                colliding.add(id);
            }
        }
        var table = new PlantTable();
        colliding.forEach(id -> table.putIfAbsent(id, plant(id)));
        table.remove(colliding.get(0));
        table.remove(colliding.get(2));
        assertNull(table.get(colliding.get(0)));
        assertNull(table.get(colliding.get(2)));
        for (long id : List.of(colliding.get(1), colliding.get(3), colliding.get(4))) {
            assertArrayEquals(plant(id), table.get(id), "id " + id);
        }
    }

    @Test
    void randomChurnAgreesWithAHashMap() {
        var random = new Random(20261122);
        var table = new PlantTable();
        Map<Long, byte[]> model = new HashMap<>();
        for (int op = 0; op < 400_000; op++) {
            // A small id range keeps clusters long and makes removals hit them; the extremes stay in play.
            long id = switch (random.nextInt(20)) {
                case 0 -> Long.MIN_VALUE + random.nextInt(3);
                case 1 -> Long.MAX_VALUE - random.nextInt(3);
                default -> random.nextInt(6_000) - 3_000;
            };
            if (random.nextInt(3) == 0) {
                assertSame(model.remove(id), table.remove(id), "remove " + id + " at op " + op);
            } else {
                byte[] plant = plant(op);
                assertSame(model.putIfAbsent(id, plant), table.putIfAbsent(id, plant), "put " + id + " at op " + op);
            }
        }
        for (long id = -3_000; id < 3_000; id++) {
            assertSame(model.get(id), table.get(id), "get " + id);
        }
        assertEquals(model.get(Long.MIN_VALUE), table.get(Long.MIN_VALUE));
    }
}
