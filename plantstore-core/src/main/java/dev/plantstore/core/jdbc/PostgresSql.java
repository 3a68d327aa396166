package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.jdbc.BatchEvents.Batch;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Array;
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
 * The SQL for PostgreSQL, where several processes write the tables and claim from the outbox. Ids are locked with
 * transaction-scoped advisory locks keyed by the plant id, which also cover ids with no row yet (a row lock cannot).
 * Other applications that take advisory locks in the same database share the key space and may wait on ours, never
 * corrupt them.
 */
final class PostgresSql extends StoreSql {

    /**
     * The advisory lock, in PostgreSQL's two-integer key space, which is apart from the one-bigint space the writer
     * locks plant ids in, so a migration never waits on a plant's lock. Its second half is the schema the tables are
     * in: stores in other schemas of the database migrate without waiting (two schemas whose names hash alike only
     * wait for each other).
     */
    static final int LOCK_CLASS = 0x706c6e74;
    static final String LOCK = "SELECT pg_advisory_xact_lock(" + LOCK_CLASS + ", hashtext(coalesce(current_schema(), "
            + "'')))";

    /**
     * A batch's round with events: each write is one data-modifying statement whose {@code RETURNING} rows (only the
     * rows really inserted or deleted) feed the event insert, so the batch stays one round trip. A row returned finds
     * its write's trace by id, which a round holds once.
     */
    private static final String RECORDING_ROUND = "; WITH stored AS (INSERT INTO plants (id, name, tag) "
            + "SELECT id, name, tag FROM unnest(?::bigint[], ?::text[], ?::text[]) AS added (id, name, tag) "
            + "ON CONFLICT (id) DO NOTHING RETURNING id, name, tag) "
            + "INSERT INTO webhook_outbox (receiver, plant_id, type, name, tag, recorded_at, leased_until, "
            + "traceparent, tracestate) SELECT receiver, id, '" + PlantEvent.CREATED + "', name, tag, ?, "
            + LEASE_UNLESS_BEHIND.formatted("receivers.receiver", "stored.id", "receivers.lease") + ", "
            + "traces.traceparent, traces.tracestate FROM stored "
            + "JOIN unnest(?::bigint[], ?::text[], ?::text[]) AS traces (id, traceparent, tracestate) USING (id) "
            + "CROSS JOIN unnest(?::text[], ?::bigint[]) AS receivers (receiver, lease) "
            + "WHERE " + UNLESS_OFF.formatted("receivers.receiver") + " RETURNING " + EVENT_COLUMNS + "; "
            + "WITH removed AS (DELETE FROM plants WHERE id = ANY (?::bigint[]) RETURNING id) "
            + "INSERT INTO webhook_outbox (receiver, plant_id, type, recorded_at, leased_until, traceparent, "
            + "tracestate) SELECT receiver, id, '" + PlantEvent.DELETED + "', ?, "
            + LEASE_UNLESS_BEHIND.formatted("receivers.receiver", "removed.id", "receivers.lease") + ", "
            + "traces.traceparent, traces.tracestate FROM removed "
            + "JOIN unnest(?::bigint[], ?::text[], ?::text[]) AS traces (id, traceparent, tracestate) USING (id) "
            + "CROSS JOIN unnest(?::text[], ?::bigint[]) AS receivers (receiver, lease) "
            + "WHERE " + UNLESS_OFF.formatted("receivers.receiver") + " RETURNING " + EVENT_COLUMNS;

    /**
     * A claim locks the rows it takes ({@code FOR UPDATE SKIP LOCKED}), so two claims never take the same row. The
     * seqs are wrapped in {@code ARRAY(...)}: the driver prepares a statement on the server after five runs, and
     * PostgreSQL's generic plan for {@code seq IN (... LIMIT $n)} joined the update to a scan of the whole table,
     * which made a claim's cost grow with the backlog (715 ms a claim at 500,000 pending events); an array of seqs is
     * always looked up in the primary key.
     */
    private static final String CLAIM = "UPDATE webhook_outbox SET leased_until = ? WHERE seq = ANY (ARRAY("
            + CLAIMABLE + " FOR UPDATE SKIP LOCKED)) RETURNING " + EVENT_COLUMNS;

    @Override
    String seqColumn() {
        return "seq BIGSERIAL PRIMARY KEY";
    }

    @Override
    void addRetryFromWhenMissing(Statement statement) throws SQLException {
        statement.execute("ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS " + RETRY_FROM);
    }

    @Override
    String claim() {
        return CLAIM;
    }

    /** One statement for all of them, their seqs in an array. */
    @Override
    void onEvents(Connection connection, String statement, Optional<Long> first, List<PlantEvent> events)
            throws SQLException {
        try (PreparedStatement all = connection.prepareStatement(statement + " WHERE seq = ANY (?::bigint[])")) {
            int next = 1;
            if (first.isPresent()) {
                all.setLong(next++, first.get());
            }
            all.setArray(next, connection.createArrayOf("int8",
                    events.stream().map(PlantEvent::seq).toArray(Long[]::new)));
            all.executeUpdate();
        }
    }

    /**
     * The second statement takes its snapshot only once the first has every lock, so it sees what the writers it
     * waited for committed. unnest yields the array in order and nothing sorts it again, so the locks are taken in
     * the order given.
     */
    private static final String LOCK_AND_READ =
            "SELECT count(pg_advisory_xact_lock(id)) FROM unnest(?::bigint[]) AS ids (id); "
            + "SELECT id, name, tag FROM plants WHERE id = ANY (?::bigint[])";
    private static final String ROUND = "; INSERT INTO plants (id, name, tag) "
            + "SELECT id, name, tag FROM unnest(?::bigint[], ?::text[], ?::text[]) AS added (id, name, tag) "
            + "ON CONFLICT (id) DO NOTHING; "
            + "DELETE FROM plants WHERE id = ANY (?::bigint[])";

    PostgresSql(int queryTimeoutSeconds) {
        super(queryTimeoutSeconds);
    }

    @Override
    String hasTable(String table) {
        return "SELECT to_regclass('" + table + "') IS NOT NULL";
    }

    @Override
    String hasColumn(String table, String column) {
        return "SELECT count(*) > 0 FROM information_schema.columns WHERE table_schema = current_schema()"
                + " AND table_name = '" + table + "' AND column_name = '" + column + "'";
    }

    /** The advisory lock, taken first in the transaction; the server frees it when that ends or its connection dies. */
    @Override
    void beginMigration(Connection connection, Statement statement) throws SQLException {
        connection.setAutoCommit(false);
        statement.execute(LOCK);
    }

    @Override
    void commitMigration(Connection connection, Statement statement) throws SQLException {
        connection.commit();
    }

    @Override
    void rollbackMigration(Connection connection, Statement statement) throws SQLException {
        connection.rollback();
    }

    /** Rows lock one by one: the outbox's updates need not wait for the writer's batches. */
    @Override
    boolean outboxWritesOnTheWriter() {
        return false;
    }

    /**
     * Every statement sent in one round trip with auto-commit on: PostgreSQL runs statements that arrive together
     * (before the protocol's Sync) as one implicit transaction, and commits it, or rolls all of it back, before it
     * answers. So the batch costs one round trip, the commit included. A warning that the commit might not have been
     * replicated arrives on the statement with its results.
     */
    @Override
    Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<PlantOp> ops, Batch events)
            throws SQLException {
        List<List<PlantOp>> rounds = rounds(ops);
        String eachRound = events.records() ? RECORDING_ROUND : ROUND;
        connection.setAutoCommit(true);
        try (PreparedStatement batch = prepare(connection, LOCK_AND_READ + eachRound.repeat(rounds.size()))) {
            int parameter = bindLockAndRead(connection, batch, sortedIds);
            for (List<PlantOp> round : rounds) {
                parameter = bindRound(connection, batch, parameter, round, events);
            }
            Map<Long, Plant> stored = executeLockAndRead(batch);
            readRemainingResults(batch, events);
            CommitNotReplicatedException.throwIfWarned(batch.getWarnings());
            return stored;
        }
    }

    /**
     * COMMIT sent as a statement rather than through {@link Connection#commit()}, which no time-out bounds: a commit
     * waiting for a synchronous standby that is gone would hold the writer until the connection's socket time-out.
     */
    @Override
    void commitTransaction(Connection connection) throws SQLException {
        try (PreparedStatement commit = prepare(connection, "COMMIT")) {
            commit.execute();
            CommitNotReplicatedException.throwIfWarned(commit.getWarnings());
        }
    }

    @Override
    Map<Long, Plant> lockAndRead(Connection connection, long[] sortedIds) throws SQLException {
        try (PreparedStatement lockAndRead = prepare(connection, LOCK_AND_READ)) {
            bindLockAndRead(connection, lockAndRead, sortedIds);
            return executeLockAndRead(lockAndRead);
        }
    }

    /** Binds the ids to lock and read; returns the next parameter's index. */
    private static int bindLockAndRead(Connection connection, PreparedStatement statement, long[] sortedIds)
            throws SQLException {
        Long[] boxed = new Long[sortedIds.length];
        for (int i = 0; i < sortedIds.length; i++) {
            boxed[i] = sortedIds[i];
        }
        Array ids = connection.createArrayOf("int8", boxed);
        statement.setArray(1, ids);
        statement.setArray(2, ids);
        return 3;
    }

    /** Runs the statement and returns what its read (the second result) found. */
    private static Map<Long, Plant> executeLockAndRead(PreparedStatement statement) throws SQLException {
        statement.execute();
        if (!statement.getMoreResults()) {
            throw new SQLException("the read after the locks gave no result set");
        }
        Map<Long, Plant> stored = new HashMap<>();
        try (ResultSet rows = statement.getResultSet()) {
            readInto(stored, rows);
        }
        return stored;
    }

    /** Binds one round's inserts (ids, names, tags) and deletes (ids); returns the next parameter's index. */
    private static int bindRound(Connection connection, PreparedStatement statement, int first, List<PlantOp> round,
                                 Batch events) throws SQLException {
        List<PlantOp> inserts = new ArrayList<>();
        List<Long> insertIds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> tags = new ArrayList<>();
        List<PlantOp> deletes = new ArrayList<>();
        List<Long> deleteIds = new ArrayList<>();
        for (PlantOp op : round) {
            if (op instanceof PlantOp.InsertIfAbsent insert) {
                inserts.add(insert);
                insertIds.add(insert.id());
                names.add(insert.plant().name());
                tags.add(insert.plant().tag());
            } else {
                deletes.add(op);
                deleteIds.add(op.id());
            }
        }
        statement.setArray(first, connection.createArrayOf("int8", insertIds.toArray()));
        statement.setArray(first + 1, connection.createArrayOf("text", names.toArray()));
        statement.setArray(first + 2, connection.createArrayOf("text", tags.toArray()));
        int next = bindEvents(connection, statement, first + 3, inserts, events);
        statement.setArray(next, connection.createArrayOf("int8", deleteIds.toArray()));
        return bindEvents(connection, statement, next + 1, deletes, events);
    }

    /**
     * Binds the events' parameters after a round's inserts, or after its deletes: {@code writes} are that round's of
     * the kind. Returns the next parameter's index; binds nothing when the batch records no events.
     */
    private static int bindEvents(Connection connection, PreparedStatement statement, int next,
                                  List<? extends PlantOp> writes, Batch events) throws SQLException {
        if (!events.records()) {
            return next;
        }
        Long[] ids = new Long[writes.size()];
        String[] traceparents = new String[writes.size()];
        String[] tracestates = new String[writes.size()];
        for (int i = 0; i < ids.length; i++) {
            PlantOp write = writes.get(i);
            ids[i] = write.id();
            traceparents[i] = write.trace().map(TraceContext::traceparent).orElse(null);
            tracestates[i] = write.trace().flatMap(TraceContext::tracestate).orElse(null);
        }
        statement.setLong(next, events.recordedAtMillis());
        statement.setArray(next + 1, connection.createArrayOf("int8", ids));
        statement.setArray(next + 2, connection.createArrayOf("text", traceparents));
        statement.setArray(next + 3, connection.createArrayOf("text", tracestates));
        statement.setArray(next + 4, connection.createArrayOf("text", events.receivers().toArray()));
        statement.setArray(next + 5, connection.createArrayOf("int8", events.leasedUntilMillis().toArray()));
        return next + 6;
    }

    /** Reads the events a statement's results after the current one returned, to the last result. */
    private static void readRemainingResults(PreparedStatement statement, Batch events) throws SQLException {
        if (!events.records()) {
            return;
        }
        while (statement.getMoreResults() || statement.getUpdateCount() != -1) {
            try (ResultSet rows = statement.getResultSet()) {
                if (rows != null) {
                    readEvents(rows, events.written());
                }
            }
        }
    }
}
