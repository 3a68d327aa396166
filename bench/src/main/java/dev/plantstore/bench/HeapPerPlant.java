package dev.plantstore.bench;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.openjdk.jol.info.GraphLayout;

/**
 * Heap held per stored plant: fills a map with {@link #PLANTS} plants (10-character names, five distinct tags, as a
 * client sends them: each string its own object) and divides the size of everything the map reaches, as JOL measures
 * it object by object, by the count. {@code plantstore} is {@link PlantStores#inMemory()}; {@code naive} is a
 * {@code ConcurrentHashMap} of records, the map anyone would write first. Prints one line
 * {@code HEAP <bytes per plant>}.
 */
public final class HeapPerPlant {

    static final int PLANTS = 1_000_000;
    private static final String[] TAGS = {"aroid", "cactus", "fern", "palm", "succulent"};

    record NaivePlant(String name, String tag) {
    }

    private HeapPerPlant() {
    }

    public static void main(String[] args) {
        String kind = args[0];
        Object held = switch (kind) {
            case "plantstore" -> fillStore();
            case "naive" -> fillNaive();
            default -> throw new IllegalArgumentException("unknown kind " + kind + "; plantstore or naive");
        };
        System.out.printf("HEAP %.1f%n", GraphLayout.parseInstance(held).totalSize() / (double) PLANTS);
    }

    private static PlantStore fillStore() {
        PlantStore store = PlantStores.inMemory();
        for (int i = 0; i < PLANTS; i++) {
            store.create(new NewPlant(1_000_000_000L + i, name(i), tag(i)));
        }
        return store;
    }

    private static Map<Long, NaivePlant> fillNaive() {
        Map<Long, NaivePlant> plants = new ConcurrentHashMap<>();
        for (int i = 0; i < PLANTS; i++) {
            plants.putIfAbsent(1_000_000_000L + i, new NaivePlant(name(i), tag(i)));
        }
        return plants;
    }

    private static String name(int i) {
        return String.format("Plant-%04d", i % 10_000);
    }

    /** A fresh string per plant, as a decoded request body gives one. */
    private static String tag(int i) {
        return new String(TAGS[i % TAGS.length].toCharArray());
    }

}
