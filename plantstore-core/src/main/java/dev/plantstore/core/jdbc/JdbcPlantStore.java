package dev.plantstore.core.jdbc;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.webhooks.CommittedEvents;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;

/**
 * {@link PlantStore} on a JDBC database: creates and deletes go through one {@link GroupCommitWriter}, whose
 * transactions are this database's {@link StoreSql}; reads go straight to the database. Every transaction takes its
 * locks in the same order, so two instances on one database never deadlock.
 * {@link #isAvailable()} reports whether a write can commit now, not only whether a connection opens.
 */
public final class JdbcPlantStore implements PlantStore {

    /** The id the health probe writes and removes again in one transaction. */
    private static final long PROBE_ID = Long.MIN_VALUE;
    /** Larger than a database page, so that SQLite must find a free page for it, as a create might have to. */
    private static final Plant PROBE_PLANT = new Plant("plantstore health probe ".repeat(400), null);

    private final DataSource dataSource;
    private final Duration timeout;
    private final BatchEvents events;
    private final StoreSql sql;
    private final JdbcOutbox outbox;
    private final GroupCommitWriter writer;

    public JdbcPlantStore(DataSource dataSource, Duration timeout, CommitListener listener) {
        this(dataSource, timeout, listener, List.of());
    }

    /** A store that records, with each write that takes effect, an event for each of {@code receivers}. */
    public JdbcPlantStore(DataSource dataSource, Duration timeout, CommitListener listener, List<String> receivers) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
        Objects.requireNonNull(listener, "null listener");
        this.timeout = Objects.requireNonNull(timeout, "null timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        Dialect dialect = Dialect.of(dataSource);
        Schema.ensure(dataSource, dialect);
        var committed = new CommittedEvents();
        this.events = new BatchEvents(receivers, committed);
        this.sql = dialect.sql((int) Math.max(1, timeout.toSeconds()));
        this.writer = new GroupCommitWriter(new Transactions(), timeout, listener);
        this.outbox = new JdbcOutbox(dataSource, sql, sql.outboxWritesOnTheWriter() ? writer::runForOutbox
                : JdbcOutbox.AT_ONCE, committed);
    }

    /** Work on one connection. */
    @FunctionalInterface
    private interface OnConnection<T> {
        T run(Connection connection) throws SQLException;
    }

    /** The writer's transactions, each on a connection of its own from the data source. */
    private final class Transactions implements GroupCommitWriter.Transactions {
        @Override
        public Map<Long, Plant> commit(long[] sortedIds, List<PlantOp> ops) throws SQLException {
            BatchEvents.Batch batch = events.batch();
            Map<Long, Plant> stored = onConnection(connection -> sql.commit(connection, sortedIds, ops, batch));
            batch.committed();
            return stored;
        }

        /** If a client has created a plant under {@link #PROBE_ID}, the probe leaves it alone and commits nothing. */
        @Override
        public void commitProbe() throws SQLException {
            onConnection(connection -> {
                sql.commitProbe(connection, PROBE_ID, PROBE_PLANT);
                return null;
            });
        }

        @Override
        public void reclaimSpace() throws SQLException {
            onConnection(connection -> {
                sql.reclaimSpace(connection);
                return null;
            });
        }

        /**
         * Runs {@code work} on a connection of the data source. A connection to a server that only reads is dropped
         * rather than given back: after a switchover a pool still holds connections to the old primary, now a
         * standby, and would hand them out again to every later batch. Aborted, a pool discards it.
         */
        private <T> T onConnection(OnConnection<T> work) throws SQLException {
            try (Connection connection = dataSource.getConnection()) {
                try {
                    return work.run(connection);
                } catch (SQLException e) {
                    if (GroupCommitWriter.READ_ONLY_SERVER.equals(e.getSQLState())) {
                        drop(connection, e);
                    }
                    throw e;
                }
            }
        }

        private static void drop(Connection connection, SQLException cause) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException e) {
                cause.addSuppressed(e);
            }
        }
    }

    /** Where the events this store records wait for delivery. */
    public JdbcOutbox outbox() {
        return outbox;
    }

    @Override
    public CreateResult create(NewPlant plant) {
        Objects.requireNonNull(plant, "null plant");
        return writer.submit(new Write.Create(plant, Optional.empty(), new CompletableFuture<>()));
    }

    @Override
    public CreateResult create(NewPlant plant, TraceContext trace) {
        Objects.requireNonNull(plant, "null plant");
        return writer.submit(new Write.Create(plant, Optional.of(trace), new CompletableFuture<>()));
    }

    @Override
    public boolean delete(long id) {
        return writer.submit(new Write.Remove(id, Optional.empty(), new CompletableFuture<>()));
    }

    @Override
    public boolean delete(long id, TraceContext trace) {
        return writer.submit(new Write.Remove(id, Optional.of(trace), new CompletableFuture<>()));
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
     * False while a write could not commit (the writer's {@link GroupCommitWriter#canCommit} says how that is known);
     * with the last commit a success and none running, true when a connection can be had. Answers within the
     * time-out.
     */
    @Override
    public boolean isAvailable() {
        return writer.canCommit(this::connectionIsValid);
    }

    private boolean connectionIsValid() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid((int) Math.max(1, timeout.toSeconds()));
        } catch (SQLException e) {
            return false;
        }
    }

    /** Fails every write still queued at once and closes once the batch running, if any, has finished. */
    @Override
    public void close() {
        writer.close();
    }
}
