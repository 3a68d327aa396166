package dev.plantstore.core.jdbc;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Something for the {@link GroupCommitWriter} to do, and the caller waiting for its outcome. */
sealed interface Write<T> permits Write.PlantWrite, Write.Probe, Write.OutboxWrite, Write.Stop {

    CompletableFuture<T> result();

    /** A create or a delete of one id. */
    sealed interface PlantWrite<T> extends Write<T> permits Create, Remove {
        long id();

        /** Decides the outcome against {@code rows} as the writes before it in the batch left them, and applies it. */
        T applyTo(Map<Long, Plant> rows);

        /** The write as the database applies it, which changes the table as {@link #applyTo} changes the map. */
        PlantOp op();
    }

    record Create(NewPlant plant, Optional<TraceContext> trace, CompletableFuture<CreateResult> result)
            implements PlantWrite<CreateResult> {
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
        public PlantOp op() {
            return new PlantOp.InsertIfAbsent(plant.id(), plant.plant(), trace);
        }
    }

    record Remove(long id, Optional<TraceContext> trace, CompletableFuture<Boolean> result)
            implements PlantWrite<Boolean> {
        @Override
        public Boolean applyTo(Map<Long, Plant> rows) {
            return rows.remove(id) != null;
        }

        @Override
        public PlantOp op() {
            return new PlantOp.Delete(id, trace);
        }
    }

    /** Asks the writer to show that a transaction that writes can commit; a health check sends it. */
    record Probe(CompletableFuture<Boolean> result) implements Write<Boolean> {
    }

    /** Work on the database that throws what JDBC throws. */
    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * A write of the outbox's ({@link JdbcOutbox}) on SQLite, run by the writer between its batches: SQLite lets one
     * writer in and has the others poll, sleeping up to 100 ms between tries, so a delivery writing beside the store's
     * writer, which commits batch after batch, waited for seconds. Run here, it waits its turn in the writer's queue
     * like a plant's write, and the store's writes take no lock of the delivery's.
     */
    record OutboxWrite<T>(Work<T> work, CompletableFuture<T> result) implements Write<T> {
        /** Runs the work, unless its caller gave up; what it throws fails it alone. */
        void run() {
            if (result.isCancelled()) {
                return;
            }
            try {
                result.complete(work.run());
            } catch (Throwable failure) {
                result.completeExceptionally(failure);
            }
        }
    }

    /** Queued by {@link GroupCommitWriter#close()} to wake the writer and end it. */
    record Stop(CompletableFuture<Void> result) implements Write<Void> {
    }

    /** One write as the database applies it. */
    sealed interface PlantOp {

        long id();

        /** The trace of the write, which its event keeps. */
        Optional<TraceContext> trace();

        record InsertIfAbsent(long id, Plant plant, Optional<TraceContext> trace) implements PlantOp {
        }

        record Delete(long id, Optional<TraceContext> trace) implements PlantOp {
        }
    }
}
