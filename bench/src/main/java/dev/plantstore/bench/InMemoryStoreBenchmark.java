package dev.plantstore.bench;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The in-memory store's operations with 100,000 plants held, against the naive map of records: packing a plant and
 * sharing its tag must not make create, delete or find noticeably dearer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class InMemoryStoreBenchmark {

    private static final int HELD = 100_000;
    private static final String[] TAGS = {"aroid", "cactus", "fern", "palm", "succulent"};

    record NaivePlant(String name, String tag) {
    }

    private PlantStore store;
    private Map<Long, NaivePlant> naive;
    private long nextId;

    @Setup(Level.Trial)
    public void fill() {
        store = PlantStores.inMemory();
        naive = new ConcurrentHashMap<>();
        for (int i = 0; i < HELD; i++) {
            store.create(new NewPlant(i, "Plant-0001", TAGS[i % TAGS.length]));
            naive.put((long) i, new NaivePlant("Plant-0001", TAGS[i % TAGS.length]));
        }
        nextId = HELD;
    }

    /** A create of a new id followed by its delete, so the store stays the same size. */
    @Benchmark
    public boolean createThenDelete() {
        long id = nextId++;
        CreateResult result = store.create(new NewPlant(id, "Plant-0002", new String(TAGS[(int) (id % 5)])));
        return store.delete(id) && result instanceof CreateResult.Created;
    }

    @Benchmark
    public boolean naiveCreateThenDelete() {
        long id = nextId++;
        boolean created = naive.putIfAbsent(id, new NaivePlant("Plant-0002", new String(TAGS[(int) (id % 5)]))) == null;
        return naive.remove(id) != null && created;
    }

    @Benchmark
    public Optional<Plant> find() {
        return store.find(nextId++ % HELD);
    }

    @Benchmark
    public NaivePlant naiveFind() {
        return naive.get(nextId++ % HELD);
    }
}
