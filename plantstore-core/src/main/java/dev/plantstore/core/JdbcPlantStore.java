package dev.plantstore.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * {@link PlantStore} on a JDBC database, with group commit: one writer thread takes every create and delete waiting in
 * its queue and runs them in one transaction. It locks the batch's ids in ascending order, reads what they hold,
 * applies the writes in the order they were submitted, commits, decides each write's outcome from what was read, and
 * only then answers each caller. Under load many writes share one commit (one fsync); alone, a write commits at once.
 *
 * <p>Every instance on a database takes its locks in the same order, so two instances never deadlock; a transaction
 * the database still rolls back for a deadlock or a serialization failure is run again, within the time-out.
 *
 * <p>The writer never dies of a failure: whatever a batch throws fails that batch's callers, and the next batch
 * starts afresh. {@link #isAvailable()} reports whether a write can commit now, not only whether a connection opens.
 */
final class JdbcPlantStore implements PlantStore {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private static final System.Logger LOG = System.getLogger(JdbcPlantStore.class.getName());

    private static final int MAX_BATCH = 256;
    private static final int MAX_QUEUED = 16_384;

    /** PostgreSQL has rolled the whole transaction back for these (deadlock, serialization failure): safe to rerun. */
    private static final Set<String> ROLLED_BACK_FOR_CONTENTION = Set.of("40P01", "40001");

    /** The id the health probe writes and removes again in one transaction. */
    private static final long PROBE_ID = Long.MIN_VALUE;
    /** Larger than a database page, so that SQLite must find a free page for it, as a create might have to. */
    private static final Plant PROBE_PLANT = new Plant("plantstore health probe ".repeat(400), null);

    /** Something for the writer to do, and the caller waiting for its outcome. */
    private sealed interface Write<T> permits PlantWrite, Probe, Stop {
        CompletableFuture<T> result();
    }

    /** A create or a delete of one id. */
    private sealed interface PlantWrite<T> extends Write<T> permits Create, Remove {
        long id();

        /** Decides the outcome against {@code rows} as the writes before it in the batch left them, and applies it. */
        T applyTo(Map<Long, Plant> rows);

        /** The write as the database applies it, which changes the table as {@link #applyTo} changes the map. */
        BatchSql.Op op();
    }

    private record Create(NewPlant plant, CompletableFuture<CreateResult> result) implements PlantWrite<CreateResult> {
        @Override
        public long id() {
            return plant.id();
        }

        @Override
        public CreateResult applyTo(Map<Long, Plant> rows) {
            Plant stored = rows.putIfAbsent(plant.id(), plant.plant());
            if (stored == null) {
                return new CreateResult.Created(plant.plant());
            }
            return stored.equals(plant.plant())
                    ? new CreateResult.AlreadyStored(stored)
                    : new CreateResult.Duplicate(plant.id());
        }

        @Override
        public BatchSql.Op op() {
            return new BatchSql.InsertIfAbsent(plant.id(), plant.plant());
        }
    }

    private record Remove(long id, CompletableFuture<Boolean> result) implements PlantWrite<Boolean> {
        @Override
        public Boolean applyTo(Map<Long, Plant> rows) {
            return rows.remove(id) != null;
        }

        @Override
        public BatchSql.Op op() {
            return new BatchSql.Delete(id);
        }
    }

    /** Asks the writer to show that a transaction that writes can commit; {@link #isAvailable()} sends it. */
    private record Probe(CompletableFuture<Boolean> result) implements Write<Boolean> {
    }

    /** Queued by {@link #close()} to wake the writer and end it. */
    private record Stop(CompletableFuture<Void> result) implements Write<Void> {
    }

    /** An outcome decided inside the transaction, handed to its caller once the transaction has committed. */
    private record Decided<T>(Write<T> write, T outcome) {
        static <T> Decided<T> decide(PlantWrite<T> write, Map<Long, Plant> rows) {
            return new Decided<>(write, write.applyTo(rows));
        }

        void complete() {
            write.result().complete(outcome);
        }
    }

    private final DataSource dataSource;
    private final Duration timeout;
    private final CommitListener listener;
    private final BatchSql sql;
    private final JdbcOutbox outbox;
    private final BlockingQueue<Write<?>> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    private final AtomicReference<CompletableFuture<Boolean>> pendingProbe = new AtomicReference<>();
    private final Thread writer;
    private final FaultLog writeFaults = new FaultLog(LOG, "plant store writes");
    private volatile boolean closed;
    private volatile boolean lastCommitFailed;
    private volatile boolean writing;
    private volatile long writingSinceNanos;

    JdbcPlantStore(DataSource dataSource, Duration timeout, CommitListener listener) {
        this(dataSource, timeout, listener, List.of());
    }

    /** A store that records, with each write that takes effect, an event for each of {@code receivers}. */
    JdbcPlantStore(DataSource dataSource, Duration timeout, CommitListener listener, List<String> receivers) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
        this.listener = Objects.requireNonNull(listener, "null listener");
        this.timeout = Objects.requireNonNull(timeout, "null timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        Schema.ensure(dataSource);
        this.sql = statementsFor(dataSource, (int) Math.max(1, timeout.toSeconds()), new EventSql(receivers));
        this.outbox = outboxOn(dataSource);
        this.writer = new Thread(this::run, "plantstore-group-commit");
        writer.setDaemon(true);
        writer.start();
    }

    private static BatchSql statementsFor(DataSource dataSource, int queryTimeoutSeconds, EventSql events) {
        try (Connection connection = dataSource.getConnection()) {
            return BatchSql.forDatabase(connection, queryTimeoutSeconds, events);
        } catch (SQLException e) {
            throw new StoreUnavailableException("the plant store could not be opened", e);
        }
    }

    private static JdbcOutbox outboxOn(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return JdbcOutbox.on(dataSource, connection);
        } catch (SQLException e) {
            throw new StoreUnavailableException("the plant store could not be opened", e);
        }
    }

    /** Where the events this store records wait for delivery. */
    JdbcOutbox outbox() {
        return outbox;
    }

    @Override
    public CreateResult create(NewPlant plant) {
        Objects.requireNonNull(plant, "null plant");
        return submit(new Create(plant, new CompletableFuture<>()));
    }

    @Override
    public boolean delete(long id) {
        return submit(new Remove(id, new CompletableFuture<>()));
    }

    @Override
    public Optional<Plant> find(long id) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = sql.prepare(connection, "SELECT name, tag FROM plants WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(new Plant(row.getString(1), row.getString(2))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the plant store could not be read", e);
        }
    }

    /**
     * False while a write could not commit: the store is closed, a batch has been running longer than the time-out
     * (a lock held elsewhere), or, after a failed commit or while a batch runs, a probe fails: it waits behind that
     * batch, commits with the next one or, with nothing else to commit, writes a row and removes it again. Otherwise
     * true when a connection can be had. Answers within the time-out.
     */
    @Override
    public boolean isAvailable() {
        if (closed || !writer.isAlive()) {
            return false;
        }
        if (writing && System.nanoTime() - writingSinceNanos > timeout.toNanos()) {
            return false;
        }
        // While a batch runs, its outcome is what matters: the probe queues behind it and shares the next commit.
        return lastCommitFailed || writing ? probe() : connectionIsValid();
    }

    private boolean connectionIsValid() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid((int) Math.max(1, timeout.toSeconds()));
        } catch (SQLException e) {
            return false;
        }
    }

    /** One probe at a time, however many callers ask: they share its outcome. */
    private boolean probe() {
        CompletableFuture<Boolean> probe = pendingProbe.get();
        if (probe == null || probe.isDone()) {
            var fresh = new CompletableFuture<Boolean>();
            if (pendingProbe.compareAndSet(probe, fresh) && !queue.offer(new Probe(fresh))) {
                fresh.complete(false);
            }
            probe = pendingProbe.get();
        }
        try {
            return probe.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Fails every write still queued at once and stops the writer once the batch it is running, if any, has finished.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        failQueued();
        if (!queue.offer(new Stop(new CompletableFuture<>()))) {
            writer.interrupt();
        }
        try {
            writer.join(timeout.toMillis() + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private <T> T submit(Write<T> write) {
        if (closed) {
            throw closedException();
        }
        if (!queue.offer(write)) {
            throw new StoreUnavailableException("the plant store is overloaded");
        }
        if (closed && !writer.isAlive()) {
            failQueued();
        }
        try {
            return write.result().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Not yet taken by the writer, it never will be; already taken, its outcome stays unknown to the caller.
            write.result().cancel(false);
            throw new StoreUnavailableException("the plant store did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StoreUnavailableException unavailable) {
                throw unavailable;
            }
            throw new StoreUnavailableException("the plant store could not be written", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting for the plant store", e);
        }
    }

    /** The writer thread: batches until closed or interrupted, and then fails whatever is still queued. */
    private void run() {
        try {
            List<Write<?>> batch = new ArrayList<>(MAX_BATCH);
            boolean stop = false;
            while (!stop && !Thread.currentThread().isInterrupted()) {
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                stop = batch.removeIf(Stop.class::isInstance);
                writeReportingFailure(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closed = true;
            failQueued();
        }
    }

    /** Runs one batch; whatever it throws, an {@link Error} included, fails that batch's callers and only them. */
    private void writeReportingFailure(List<Write<?>> batch) {
        writingSinceNanos = System.nanoTime();
        writing = true;
        try {
            if (write(batch)) {
                lastCommitFailed = false;
                recovered();
            }
        } catch (Throwable failure) {
            lastCommitFailed = true;
            writeFaults.failed(failure, failure instanceof SQLException);
            batch.forEach(write -> write.result().completeExceptionally(failure));
        } finally {
            writing = false;
        }
    }

    /**
     * After a fault, whatever the database kept of it is given back: SQLite's write-ahead log, which the failed
     * transactions grew, is checkpointed and truncated, so that a disk that filled up does not stay full.
     */
    private void recovered() {
        if (!writeFaults.isFailing()) {
            return;
        }
        try (Connection connection = dataSource.getConnection()) {
            sql.reclaimSpace(connection);
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "plant store: could not give back the space a fault used: "
                    + FaultLog.reason(e));
        }
        writeFaults.succeeded();
    }

    /** Commits the batch, rerunning it after a rollback for contention; false when it held nothing to commit. */
    private boolean write(List<Write<?>> batch) throws SQLException {
        List<PlantWrite<?>> writes = new ArrayList<>(batch.size());
        List<Probe> probes = new ArrayList<>();
        for (Write<?> write : batch) {
            if (write instanceof PlantWrite<?> plantWrite) {
                writes.add(plantWrite);
            } else if (write instanceof Probe probe) {
                probes.add(probe);
            }
        }
        long giveUpAt = System.nanoTime() + timeout.toNanos();
        while (true) {
            // A caller that gave up has been told 503; what it asked for need not happen.
            writes.removeIf(write -> write.result().isCancelled());
            if (writes.isEmpty() && probes.isEmpty()) {
                return false;
            }
            try {
                long start = System.nanoTime();
                List<Decided<?>> decided = writes.isEmpty() ? commitProbe() : commit(writes);
                long took = System.nanoTime() - start;
                decided.forEach(Decided::complete);
                probes.forEach(probe -> probe.result().complete(true));
                if (!writes.isEmpty()) {
                    tellListener(writes.size(), took);
                }
                return true;
            } catch (SQLException e) {
                if (!rolledBackForContention(e) || System.nanoTime() - giveUpAt > 0) {
                    throw e;
                }
            }
        }
    }

    /** SQLite's exceptions have no SQL state. */
    private static boolean rolledBackForContention(SQLException e) {
        return e.getSQLState() != null && ROLLED_BACK_FOR_CONTENTION.contains(e.getSQLState());
    }

    /** After the callers have their answers: a listener that throws must not turn a commit into a failure. */
    private void tellListener(int writes, long nanos) {
        try {
            listener.committed(writes, nanos);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "plantstore writer: the commit listener failed", e);
        }
    }

    /**
     * Commits the writes, then decides each one's outcome from what their ids held before, in the order the writes
     * were submitted: the same decisions by which the database applied them.
     */
    private List<Decided<?>> commit(List<PlantWrite<?>> writes) throws SQLException {
        long[] ids = writes.stream().mapToLong(PlantWrite::id).sorted().distinct().toArray();
        List<BatchSql.Op> ops = writes.stream().map(PlantWrite::op).toList();
        Map<Long, Plant> rows;
        try (Connection connection = dataSource.getConnection()) {
            rows = new HashMap<>(sql.commit(connection, ids, ops));
        }
        List<Decided<?>> decided = new ArrayList<>(writes.size());
        for (PlantWrite<?> write : writes) {
            decided.add(Decided.decide(write, rows));
        }
        return decided;
    }

    /** If a client has created a plant under {@link #PROBE_ID}, the probe leaves it alone and commits nothing. */
    private List<Decided<?>> commitProbe() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            sql.commitProbe(connection, PROBE_ID, PROBE_PLANT);
        }
        return List.of();
    }

    private void failQueued() {
        Write<?> write;
        while ((write = queue.poll()) != null) {
            write.result().completeExceptionally(closedException());
        }
    }

    private static StoreUnavailableException closedException() {
        return new StoreUnavailableException("the plant store is closed");
    }
}
