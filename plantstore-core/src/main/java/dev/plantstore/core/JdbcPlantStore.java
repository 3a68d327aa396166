package dev.plantstore.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

/**
 * {@link PlantStore} on a JDBC database, with group commit: one writer thread takes every create and delete waiting
 * in its queue, applies them in order in one transaction, commits, and only then answers each caller. Under load many
 * writes share one commit (one fsync); alone, a write commits at once. Duplicate ids are detected by the primary key
 * ({@code ON CONFLICT DO NOTHING} affecting no row), never by a read before the write.
 */
final class JdbcPlantStore implements PlantStore {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private static final int MAX_BATCH = 256;
    private static final int MAX_QUEUED = 16_384;

    private static final String INSERT = "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING";
    private static final String DELETE = "DELETE FROM plants WHERE id = ?";
    private static final String SELECT = "SELECT name, tag FROM plants WHERE id = ?";

    /** A create or delete waiting for the writer, and the caller waiting for its committed result. */
    private sealed interface Write {
        CompletableFuture<Object> result();
    }

    private record Insert(NewPlant plant, CompletableFuture<Object> result) implements Write {
    }

    private record Delete(long id, CompletableFuture<Object> result) implements Write {
    }

    /** Queued by {@link #close()}: the writer finishes what is ahead of it, then stops. */
    private record Stop(CompletableFuture<Object> result) implements Write {
    }

    private final DataSource dataSource;
    private final Duration timeout;
    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    private final Thread writer;
    private volatile boolean closed;

    JdbcPlantStore(DataSource dataSource, Duration timeout) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
        this.timeout = Objects.requireNonNull(timeout, "null timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        Schema.ensure(dataSource);
        this.writer = new Thread(this::writeLoop, "plantstore-group-commit");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public CreateResult create(NewPlant plant) {
        Objects.requireNonNull(plant, "null plant");
        return (CreateResult) submit(new Insert(plant, new CompletableFuture<>()));
    }

    @Override
    public boolean delete(long id) {
        return (Boolean) submit(new Delete(id, new CompletableFuture<>()));
    }

    @Override
    public Optional<Plant> find(long id) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(new Plant(row.getString(1), row.getString(2))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the plant store could not be read", e);
        }
    }

    @Override
    public boolean isAvailable() {
        if (closed) {
            return false;
        }
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid((int) Math.max(1, timeout.toSeconds()));
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        var stop = new Stop(new CompletableFuture<>());
        try {
            queue.put(stop);
            writer.join(timeout.toMillis() + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Object submit(Write write) {
        if (closed) {
            throw new StoreUnavailableException("the plant store is closed");
        }
        if (!queue.offer(write)) {
            throw new StoreUnavailableException("the plant store is overloaded");
        }
        try {
            return write.result().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Not yet taken by the writer, it never will be; already taken, its outcome stays unknown to the caller.
            write.result().cancel(false);
            throw new StoreUnavailableException("the plant store did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw new StoreUnavailableException("the plant store could not be written", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting for the plant store", e);
        }
    }

    private void writeLoop() {
        List<Write> batch = new ArrayList<>(MAX_BATCH);
        while (true) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            boolean stop = batch.removeIf(write -> write instanceof Stop);
            batch.removeIf(write -> write.result().isCancelled());
            if (!batch.isEmpty()) {
                commit(batch);
            }
            batch.clear();
            if (stop) {
                failQueued();
                return;
            }
        }
    }

    /** Applies the batch in one transaction; answers every caller only after the commit, or fails them all. */
    private void commit(List<Write> batch) {
        Object[] results = new Object[batch.size()];
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(INSERT);
                 PreparedStatement delete = connection.prepareStatement(DELETE)) {
                for (int i = 0; i < results.length; i++) {
                    results[i] = apply(batch.get(i), insert, delete);
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            batch.forEach(write -> write.result().completeExceptionally(e));
            return;
        }
        for (int i = 0; i < results.length; i++) {
            batch.get(i).result().complete(results[i]);
        }
    }

    private static Object apply(Write write, PreparedStatement insert, PreparedStatement delete) throws SQLException {
        if (write instanceof Insert create) {
            NewPlant plant = create.plant();
            insert.setLong(1, plant.id());
            insert.setString(2, plant.name());
            insert.setString(3, plant.tag());
            return insert.executeUpdate() == 1
                    ? new CreateResult.Created(plant.plant())
                    : new CreateResult.Duplicate(plant.id());
        }
        delete.setLong(1, ((Delete) write).id());
        return delete.executeUpdate() > 0;
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private void failQueued() {
        Write write;
        while ((write = queue.poll()) != null) {
            write.result().completeExceptionally(new StoreUnavailableException("the plant store is closed"));
        }
    }
}
