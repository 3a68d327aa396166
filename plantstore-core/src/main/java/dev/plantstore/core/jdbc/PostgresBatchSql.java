package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.jdbc.Write.PlantOp;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL: ids are locked with transaction-scoped advisory locks keyed by the plant id, which also cover ids
 * with no row yet (a row lock cannot). Other applications that take advisory locks in the same database share
 * the key space and may wait on ours, never corrupt them.
 */
final class PostgresBatchSql extends BatchSql {

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

    private final String round;

    PostgresBatchSql(int queryTimeoutSeconds, EventSql events) {
        super(queryTimeoutSeconds, events);
        this.round = events.postgresRound(ROUND);
    }

    /**
     * Every statement sent in one round trip with auto-commit on: PostgreSQL runs statements that arrive together
     * (before the protocol's Sync) as one implicit transaction, and commits it, or rolls all of it back, before it
     * answers. So the batch costs one round trip, the commit included. A warning that the commit might not have been
     * replicated arrives on the statement with its results.
     */
    @Override
    Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<PlantOp> ops, EventSql.Batch events)
            throws SQLException {
        List<List<PlantOp>> rounds = rounds(ops);
        connection.setAutoCommit(true);
        try (PreparedStatement batch = prepare(connection, LOCK_AND_READ + round.repeat(rounds.size()))) {
            int parameter = bindLockAndRead(connection, batch, sortedIds);
            for (List<PlantOp> round : rounds) {
                parameter = bindRound(connection, batch, parameter, round, events);
            }
            Map<Long, Plant> stored = executeLockAndRead(batch);
            events.readRemainingResults(batch);
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
                                 EventSql.Batch events) throws SQLException {
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
        int next = events.bindEvents(connection, statement, first + 3, inserts);
        statement.setArray(next, connection.createArrayOf("int8", deleteIds.toArray()));
        return events.bindEvents(connection, statement, next + 1, deletes);
    }
}
