package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.sqlite.DurableSqlite;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On SQLite the delivery's writes to the outbox go through the store's own writer, so the store's writes share no lock
 * with the delivery: each of them runs on the writer's thread.
 */
class OutboxWritesOnTheWriterTest {

    private static final String RECEIVER = "http://a.example/hook";

    @TempDir
    Path dir;

    @Test
    void theDeliverysClaimsAndSettlingRunOnTheStoresWriterThread() {
        Set<String> writingThreads = ConcurrentHashMap.newKeySet();
        DataSource sqlite = DurableSqlite.dataSource(dir.resolve("plants.db"));
        var store = new JdbcPlantStore(recordingThreads(sqlite, writingThreads), Duration.ofSeconds(5),
                CommitListener.NONE, List.of(RECEIVER));
        try {
            store.create(new NewPlant(1, "Monstera"));
            store.create(new NewPlant(2, "Fern"));
            writingThreads.clear();
            List<PlantEvent> claimed = store.outbox().claim(RECEIVER, Long.MAX_VALUE / 2, 10);
            assertEquals(2, claimed.size());
            store.outbox().reschedule(List.of(claimed.get(0)), 0, true);
            store.outbox().delivered(List.of(claimed.get(1)));
            store.outbox().giveUp(store.outbox().claim(RECEIVER, Long.MAX_VALUE / 2, 10));
            assertEquals(Set.of("plantstore-group-commit"), writingThreads);
        } finally {
            store.close();
        }
    }

    /** {@code dataSource}, noting the thread of each connection it hands out. */
    private static DataSource recordingThreads(DataSource dataSource, Set<String> threads) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && method.getReturnType() == Connection.class) {
                        threads.add(Thread.currentThread().getName());
                    }
                    try {
                        return method.invoke(dataSource, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
