package dev.plantstore.core.jdbc;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.Plant;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.threads.DaemonThreads;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Group commit: one thread runs every create and delete of a store, taking whatever waits (up to {@value #MAX_BATCH})
 * as one batch in one transaction, so that under load many writes share a commit and alone a write commits at once.
 * The transaction locks the batch's ids in ascending order and applies the writes in the order submitted; each
 * outcome is decided from what was read and given to its caller only after the commit. A rollback for contention or
 * a refusal by a demoted primary runs the batch again; a commit not confirmed replicated
 * ({@link CommitNotReplicatedException}) is an unknown outcome, told as unavailable. What a batch throws fails its
 * callers alone, and a fault is logged as it starts, lasts and ends ({@link FaultLog}). The outbox's writes on
 * SQLite and the health probe ride the same queue.
 */
final class GroupCommitWriter implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());

    private static final int MAX_BATCH = 256;
    /** Writes that may wait for the writer; one more fails at once, as overloaded. */
    private static final int MAX_QUEUED = 16_384;

    /** PostgreSQL has rolled the whole transaction back for these (deadlock, serialization failure): safe to rerun. */
    private static final Set<String> ROLLED_BACK_FOR_CONTENTION = Set.of("40P01", "40001");
    /** A write refused by a server that only reads: a standby, or a primary demoted since the connection was opened. */
    static final String READ_ONLY_SERVER = "25006";

    /** The transactions the writer runs, on whatever database. */
    interface Transactions {
        /** Commits {@code ops} as {@link StoreSql#commit} does; returns what the ids held before. */
        Map<Long, Plant> commit(long[] sortedIds, List<PlantOp> ops) throws SQLException;

        /** Commits a write that needs what a create needs, and changes nothing a client stored. */
        void commitProbe() throws SQLException;

        /** After a fault, gives back what the failed transactions left behind. */
        void reclaimSpace() throws SQLException;
    }

    /** An outcome decided inside the transaction, handed to its caller once the transaction has committed. */
    private record Decided<T>(Write<T> write, T outcome) {
        static <T> Decided<T> decide(Write.PlantWrite<T> write, Map<Long, Plant> rows) {
            return new Decided<>(write, write.applyTo(rows));
        }

        void complete() {
            write.result().complete(outcome);
        }
    }

    private final Transactions transactions;
    private final Duration timeout;
    private final CommitListener listener;
    private final BlockingQueue<Write<?>> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    private final AtomicReference<CompletableFuture<Boolean>> pendingProbe = new AtomicReference<>();
    private final FaultLog writeFaults = new FaultLog(LOG, "plant store writes");
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean lastCommitFailed;
    private volatile boolean writing;
    private volatile long writingSinceNanos;

    GroupCommitWriter(Transactions transactions, Duration timeout, CommitListener listener) {
        this.transactions = Objects.requireNonNull(transactions, "null transactions");
        this.timeout = Objects.requireNonNull(timeout, "null timeout");
        this.listener = Objects.requireNonNull(listener, "null listener");
        this.thread = DaemonThreads.named("plantstore-group-commit").newThread(this::run);
        thread.start();
    }

    /** Queues {@code write} and waits for its outcome, at most the time-out. */
    <T> T submit(Write<T> write) {
        if (closed) {
            throw closedException();
        }
        if (!queue.offer(write)) {
            throw new StoreUnavailableException("the plant store is overloaded");
        }
        if (closed && !thread.isAlive()) {
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

    /** Runs {@code work} for the outbox, as {@link Write.OutboxWrite} says; throws what it threw. */
    <T> T runForOutbox(Write.Work<T> work) throws SQLException {
        try {
            return submit(new Write.OutboxWrite<>(work, new CompletableFuture<>()));
        } catch (StoreUnavailableException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * False while a write could not commit: the writer is closed, a batch has been running longer than the time-out
     * (a lock held elsewhere), or, after a failed commit or while a batch runs, a probe fails: it waits behind that
     * batch, commits with the next one or, with nothing else to commit, commits a write of its own. Otherwise what
     * {@code idle} says. Answers within the time-out.
     */
    boolean canCommit(BooleanSupplier idle) {
        if (closed || !thread.isAlive()) {
            return false;
        }
        if (writing && System.nanoTime() - writingSinceNanos > timeout.toNanos()) {
            return false;
        }
        // While a batch runs, its outcome is what matters: the probe queues behind it and shares the next commit.
        return lastCommitFailed || writing ? probe() : idle.getAsBoolean();
    }

    /** One probe at a time, however many callers ask: they share its outcome. */
    private boolean probe() {
        CompletableFuture<Boolean> probe = pendingProbe.get();
        if (probe == null || probe.isDone()) {
            var fresh = new CompletableFuture<Boolean>();
            if (pendingProbe.compareAndSet(probe, fresh) && !queue.offer(new Write.Probe(fresh))) {
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
        if (!queue.offer(new Write.Stop(new CompletableFuture<>()))) {
            thread.interrupt();
        }
        try {
            thread.join(timeout.toMillis() + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
                stop = batch.removeIf(Write.Stop.class::isInstance);
                runOutboxWrites(batch);
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

    /** Takes the outbox's writes out of the batch and runs them, each on its own. */
    private static void runOutboxWrites(List<Write<?>> batch) {
        for (Iterator<Write<?>> writes = batch.iterator(); writes.hasNext(); ) {
            if (writes.next() instanceof Write.OutboxWrite<?> outboxWrite) {
                writes.remove();
                outboxWrite.run();
            }
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

    /** After a fault, whatever the database kept of it is given back, and the fault's end is logged. */
    private void recovered() {
        if (!writeFaults.isFailing()) {
            return;
        }
        try {
            transactions.reclaimSpace();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "plant store: could not give back the space a fault used: "
                    + FaultLog.reason(e));
        }
        writeFaults.succeeded();
    }

    /** Commits the batch, rerunning it after a rollback for contention; false when it held nothing to commit. */
    private boolean write(List<Write<?>> batch) throws SQLException {
        List<Write.PlantWrite<?>> writes = new ArrayList<>(batch.size());
        List<Write.Probe> probes = new ArrayList<>();
        for (Write<?> write : batch) {
            if (write instanceof Write.PlantWrite<?> plantWrite) {
                writes.add(plantWrite);
            } else if (write instanceof Write.Probe probe) {
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
                if (!changedNothing(e) || System.nanoTime() - giveUpAt > 0) {
                    throw e;
                }
            }
        }
    }

    /** The database refused the whole transaction and says why: it can run again. SQLite's exceptions have no state. */
    private static boolean changedNothing(SQLException e) {
        String state = e.getSQLState();
        return state != null && (ROLLED_BACK_FOR_CONTENTION.contains(state) || READ_ONLY_SERVER.equals(state));
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
    private List<Decided<?>> commit(List<Write.PlantWrite<?>> writes) throws SQLException {
        long[] ids = writes.stream().mapToLong(Write.PlantWrite::id).sorted().distinct().toArray();
        List<PlantOp> ops = writes.stream().map(Write.PlantWrite::op).toList();
        Map<Long, Plant> rows = new HashMap<>(transactions.commit(ids, ops));
        List<Decided<?>> decided = new ArrayList<>(writes.size());
        for (Write.PlantWrite<?> write : writes) {
            decided.add(Decided.decide(write, rows));
        }
        return decided;
    }

    private List<Decided<?>> commitProbe() throws SQLException {
        transactions.commitProbe();
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
