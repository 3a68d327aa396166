package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.jdbc.BatchEvents.Batch;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One database's dialect, the subclass, owning every way the databases differ: the SQL of the tables {@code plants}
 * and {@code webhook_outbox}, the outbox's statements ({@link JdbcOutbox}) and the checks and transactions of the
 * schema's steps, which {@link Schema} runs. A batch is one group-commit transaction: lock its ids, read what they
 * hold, apply the writes in submitted order, record their events ({@link BatchEvents}), commit; the table ends as
 * the decisions taken in Java from what was read say it must. PostgreSQL's batch is one round trip whatever its size.
 */
abstract class StoreSql {

    private static final String INSERT = "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)";
    static final String DELETE = "DELETE FROM plants WHERE id = ?";

    private final int queryTimeoutSeconds;

    /** Statements of a batch are ended after {@code queryTimeoutSeconds}; 0 for none, as for the outbox's own. */
    StoreSql(int queryTimeoutSeconds) {
        this.queryTimeoutSeconds = queryTimeoutSeconds;
    }

    /** A query of one boolean row: whether {@code table} exists. */
    abstract String hasTable(String table);

    /** A query of one boolean row: whether {@code table} has {@code column}. */
    abstract String hasColumn(String table, String column);

    /**
     * The schema version the tables show before version 3's columns: what version 2 changed, where it changed
     * something this database can see; 0 where it cannot tell.
     */
    int builtVersionWithoutTraces(Statement statement) throws SQLException {
        return 0;
    }

    /**
     * Begins a migration step's transaction, holding what keeps other instances' steps out before the version is
     * read; {@link #commitMigration} and {@link #rollbackMigration} end it.
     */
    abstract void beginMigration(Connection connection, Statement statement) throws SQLException;

    abstract void commitMigration(Connection connection, Statement statement) throws SQLException;

    abstract void rollbackMigration(Connection connection, Statement statement) throws SQLException;

    /** Version 2's change to the plants table, where this database needs one. */
    void rekeyPlantsForVersion2(Statement statement) throws SQLException {
    }

    /**
     * Whether the outbox's updates run on the store's writer, between its batches, rather than at once: for a
     * database that has one writer at a time.
     */
    abstract boolean outboxWritesOnTheWriter();

    /**
     * Gives back the disk space failed transactions left behind, once writes commit again; nothing on a database
     * that manages its own files.
     */
    void reclaimSpace(Connection connection) throws SQLException {
    }

    /**
     * In one transaction: makes every other writer of these ids wait, reads what {@code sortedIds} hold, applies
     * {@code ops} in order and commits. Returns what the ids held before; an id with no plant is absent from the map.
     * Taking the locks in ascending order in every transaction is what keeps two instances from each holding what the
     * other waits for. The events the writes record are written through {@code events}.
     */
    abstract Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<PlantOp> ops, Batch events)
            throws SQLException;

    /** Makes other writers of {@code sortedIds} wait for this transaction, then reads what they hold. */
    abstract Map<Long, Plant> lockAndRead(Connection connection, long[] sortedIds) throws SQLException;

    /**
     * Writes {@code plant} under {@code id} and removes it again in one committed transaction, which needs what a
     * create needs: a connection, the table's locks, room on the disk. A plant a client stored under {@code id} is
     * left alone, and the transaction commits nothing.
     */
    final void commitProbe(Connection connection, long id, Plant plant) throws SQLException {
        connection.setAutoCommit(false);
        try {
            if (lockAndRead(connection, new long[] {id}).isEmpty()) {
                try (PreparedStatement insert = prepare(connection, INSERT);
                     PreparedStatement delete = prepare(connection, DELETE)) {
                    insert.setLong(1, id);
                    insert.setString(2, plant.name());
                    insert.setString(3, plant.tag());
                    insert.executeUpdate();
                    delete.setLong(1, id);
                    delete.executeUpdate();
                }
            }
            commitTransaction(connection);
        } catch (CommitNotReplicatedException e) {
            throw e;
        } catch (Throwable e) {
            rollbackQuietly(connection, e);
            throw e;
        }
    }

    /**
     * Commits the connection's transaction; throws {@link CommitNotReplicatedException} when the database warned that
     * the commit might not have reached its synchronous standby: committed here, but not a success to report.
     */
    void commitTransaction(Connection connection) throws SQLException {
        connection.clearWarnings();
        connection.commit();
        CommitNotReplicatedException.throwIfWarned(connection.getWarnings());
    }

    /**
     * {@code ops} split so that no round holds an id twice: round k holds each id's (k+1)th write, in submission
     * order. Within a round the order of the writes no longer matters, so a round can go to the database as one
     * statement per kind of write.
     */
    static List<List<PlantOp>> rounds(List<PlantOp> ops) {
        List<List<PlantOp>> rounds = new ArrayList<>();
        Map<Long, Integer> writesSoFar = new HashMap<>();
        for (PlantOp op : ops) {
            int round = writesSoFar.merge(op.id(), 1, Integer::sum) - 1;
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(round).add(op);
        }
        return rounds;
    }

    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setQueryTimeout(queryTimeoutSeconds);
        return statement;
    }

    static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
            backToAutoCommit(connection, cause);
        }
    }

    /**
     * A rollback that failed leaves the driver unsure whether a transaction is open: SQLite rolls a transaction back by
     * itself when the disk is full, sqlite-jdbc's rollback then fails and never begins the next one, and every later
     * batch on that connection would fail to commit. Returning to auto-commit puts driver and database back in step;
     * the next batch begins afresh.
     */
    private static void backToAutoCommit(Connection connection, Throwable cause) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Adds {@code rows} (id, name, tag) to {@code stored}. */
    static void readInto(Map<Long, Plant> stored, ResultSet rows) throws SQLException {
        while (rows.next()) {
            stored.put(rows.getLong(1), new Plant(rows.getString(2), rows.getString(3)));
        }
    }

    /** An event's state: waiting to be delivered. A delivered event's row is removed. */
    static final int PENDING = 0;
    /** An event's state: given up on, kept for an operator to see and send again. */
    static final int UNDELIVERABLE = 1;

    /** The columns that make a {@link PlantEvent}, as {@link #readEvents} reads them. */
    static final String EVENT_COLUMNS =
            "seq, receiver, plant_id, type, name, tag, recorded_at, attempts, leased_until, retry_from, traceparent, "
            + "tracestate";

    /**
     * An event is leased to the process that records it, to be sent from memory, unless an earlier event of its plant
     * is still pending for that receiver: then it waits for a claim, which takes it only once the earlier one is done,
     * so that the events of a plant keep their order whichever process recorded them.
     */
    static final String LEASE_UNLESS_BEHIND = "CASE WHEN EXISTS (SELECT 1 FROM webhook_outbox e "
            + "WHERE e.receiver = %s AND e.plant_id = %s AND e.state = " + PENDING + ") THEN 0 ELSE %s END";

    /**
     * The pending events a claim may take, from {@code seq > ?} on: due, not leased, each the earliest pending one of
     * its plant id, in order. "The earliest of its plant" is a scalar subquery, which is always one look into the
     * by-plant index; written as NOT EXISTS, PostgreSQL's generic plan of a table without statistics compared every
     * pending row of the receiver with each candidate (1.2 s a claim at 50,000 pending events, against 5 ms).
     */
    static final String CLAIMABLE = "SELECT o.seq FROM webhook_outbox o WHERE o.receiver = ? AND o.state = "
            + PENDING + " AND o.seq > ? AND o.due_at <= ? AND o.leased_until <= ? AND o.seq = (SELECT min(e.seq) FROM "
            + "webhook_outbox e WHERE e.receiver = o.receiver AND e.plant_id = o.plant_id AND e.state = " + PENDING
            + ") ORDER BY o.seq LIMIT ?";

    /** When an operator's redelivery started the event's retry period again; 0 while it runs from the write. */
    static final String RETRY_FROM = "retry_from BIGINT NOT NULL DEFAULT 0";

    /** Settling, each followed by the events' seqs as {@link #onEvents} adds them. */
    static final String DELIVERED = "DELETE FROM webhook_outbox";
    static final String RESCHEDULE = "UPDATE webhook_outbox SET due_at = ?, leased_until = 0";
    static final String RESCHEDULE_AFTER_FAILURE =
            "UPDATE webhook_outbox SET attempts = attempts + 1, due_at = ?, leased_until = 0";
    static final String GIVE_UP =
            "UPDATE webhook_outbox SET attempts = attempts + 1, state = " + UNDELIVERABLE + ", leased_until = 0";

    /** The receivers turned off after a {@code 410 Gone}, for every process on the database. */
    static final String RECEIVERS_OFF = "webhook_receivers_off";
    /** Version 4's table of the receivers turned off. */
    static final String CREATE_RECEIVERS_OFF = "CREATE TABLE " + RECEIVERS_OFF
            + " (receiver TEXT PRIMARY KEY, off_since BIGINT NOT NULL)";
    /** An event is recorded only for a receiver not turned off; the parameter is the receiver. */
    static final String UNLESS_OFF = "NOT EXISTS (SELECT 1 FROM " + RECEIVERS_OFF + " off WHERE off.receiver = %s)";
    static final String TURN_OFF = "INSERT INTO " + RECEIVERS_OFF + " (receiver, off_since) VALUES (?, ?) "
            + "ON CONFLICT (receiver) DO NOTHING";
    static final String GIVE_UP_PENDING = "UPDATE webhook_outbox SET state = " + UNDELIVERABLE + ", leased_until = 0 "
            + "WHERE receiver = ? AND state = " + PENDING;
    static final String IS_OFF = "SELECT count(*) FROM " + RECEIVERS_OFF + " WHERE receiver = ?";
    static final String TURN_ON = "DELETE FROM " + RECEIVERS_OFF + " WHERE receiver = ?";

    static final String PENDING_COUNT = "SELECT count(*) FROM webhook_outbox WHERE receiver = ? AND state = "
            + PENDING;
    /** The earliest seq is the oldest event: a look at the head of the pending index, whatever the backlog. */
    static final String OLDEST_PENDING = "SELECT coalesce((SELECT recorded_at FROM webhook_outbox WHERE receiver = ? "
            + "AND state = " + PENDING + " ORDER BY seq LIMIT 1), 0)";

    /**
     * Creates the table as schema version 1 left it, when missing, and adds a column of version 1 to a table of an
     * earlier release of it that lacks the column; run by {@link Schema}'s steps. The partial indexes serve the claim:
     * pending events in order, and the earliest pending one of a plant id.
     */
    final void ensureTable(Statement statement) throws SQLException {
        statement.execute("CREATE TABLE IF NOT EXISTS webhook_outbox (" + seqColumn() + ", receiver TEXT NOT NULL, "
                + "plant_id BIGINT NOT NULL, type TEXT NOT NULL, name TEXT, tag TEXT, recorded_at BIGINT NOT NULL, "
                + "attempts INTEGER NOT NULL DEFAULT 0, due_at BIGINT NOT NULL DEFAULT 0, "
                + "leased_until BIGINT NOT NULL DEFAULT 0, state INTEGER NOT NULL DEFAULT " + PENDING + ", "
                + RETRY_FROM + ")");
        addRetryFromWhenMissing(statement);
        statement.execute("CREATE INDEX IF NOT EXISTS webhook_outbox_pending ON webhook_outbox (receiver, seq) "
                + "WHERE state = " + PENDING);
        statement.execute("CREATE INDEX IF NOT EXISTS webhook_outbox_pending_by_plant "
                + "ON webhook_outbox (receiver, plant_id, seq) WHERE state = " + PENDING);
    }

    abstract String seqColumn();

    abstract void addRetryFromWhenMissing(Statement statement) throws SQLException;

    /** The claim: leases the rows {@link #CLAIMABLE} finds and returns them as {@link #EVENT_COLUMNS}. */
    abstract String claim();

    /** Runs {@code statement} (which may take one leading parameter, {@code first}) on the rows of {@code events}. */
    abstract void onEvents(Connection connection, String statement, Optional<Long> first, List<PlantEvent> events)
            throws SQLException;

    /** The undeliverable events, oldest first, of one receiver or of all; then the limit's parameter. */
    static String givenUp(boolean ofOneReceiver) {
        return "SELECT " + EVENT_COLUMNS + " FROM webhook_outbox WHERE state = " + UNDELIVERABLE
                + (ofOneReceiver ? " AND receiver = ?" : "") + " ORDER BY seq LIMIT ?";
    }

    /** Makes the undeliverable events pending again, due now, their retry period starting at the first parameter. */
    static String redeliver(boolean ofOneReceiver) {
        return "UPDATE webhook_outbox SET state = " + PENDING + ", attempts = 0, due_at = 0, leased_until = 0, "
                + "retry_from = ? WHERE state = " + UNDELIVERABLE + (ofOneReceiver ? " AND receiver = ?" : "");
    }

    /** Adds the events in {@code rows} (selected as {@link #EVENT_COLUMNS}) to {@code events}. */
    static void readEvents(ResultSet rows, List<PlantEvent> events) throws SQLException {
        while (rows.next()) {
            String name = rows.getString(5);
            Plant plant = name == null ? null : new Plant(name, rows.getString(6));
            long recordedAt = rows.getLong(7);
            events.add(new PlantEvent(rows.getLong(1), rows.getString(2), rows.getLong(3), rows.getString(4), plant,
                    recordedAt, rows.getInt(8), rows.getLong(9), Math.max(recordedAt, rows.getLong(10)),
                    traceOf(rows.getString(11), rows.getString(12))));
        }
    }

    /**
     * The trace kept in the two columns; none when a release that did not keep traces recorded the event, or what the
     * columns hold is not a trace context (only the store writes them, and only from a valid one).
     */
    private static Optional<TraceContext> traceOf(String traceparent, String tracestate) {
        if (traceparent == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TraceContext(traceparent, Optional.ofNullable(tracestate)));
        } catch (IllegalArgumentException notATrace) {
            return Optional.empty();
        }
    }
}
