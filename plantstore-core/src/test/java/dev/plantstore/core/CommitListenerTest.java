package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDBC store tells its listener of every commit: how many writes shared it and how long it took. */
class CommitListenerTest {

    private record Commit(int writes, long nanos) {
    }

    @TempDir
    Path dir;

    @Test
    void everyWriteIsInExactlyOneReportedCommitWithItsDuration() throws Exception {
        var commits = new ConcurrentLinkedQueue<Commit>();
        int clients = 8;
        int writesPerClient = 50;
        try (PlantStore store = PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")),
                JdbcStoreSettings.defaults().withListener((writes, nanos) -> commits.add(new Commit(writes, nanos))))) {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int client = 0; client < clients; client++) {
                    long first = client * 1_000L;
                    done.add(pool.submit(() -> {
                        for (long id = first; id < first + writesPerClient / 2; id++) {
                            store.create(new NewPlant(id, "Fern", null));
                            store.delete(id);
                        }
                        return null;
                    }));
                }
                for (Future<?> future : done) {
                    future.get();
                }
            } finally {
                pool.shutdown();
            }
        }
        assertEquals(clients * writesPerClient, commits.stream().mapToInt(Commit::writes).sum(), commits::toString);
        assertTrue(commits.stream().allMatch(commit -> commit.writes() >= 1 && commit.nanos() > 0), commits::toString);
    }

    @Test
    void aListenerThatThrowsTurnsNoCommitIntoAFailure() {
        CommitListener broken = (writes, nanos) -> {
            throw new IllegalStateException("a broken metrics registry");
        };
        try (PlantStore store = PlantStores.jdbc(DurableSqlite.dataSource(dir.resolve("plants.db")),
                JdbcStoreSettings.defaults().withListener(broken))) {
            assertEquals(new CreateResult.Created(new Plant("Fern", null)), store.create(new NewPlant(1, "Fern")));
            assertTrue(store.isAvailable());
        }
    }
}
