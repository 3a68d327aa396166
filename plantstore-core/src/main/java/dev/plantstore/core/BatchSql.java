package dev.plantstore.core;

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
 * The SQL of one group-commit transaction: lock the batch's ids, read what they hold, apply the writes in the order
 * they were submitted, commit. A create inserts unless its id holds a plant and a delete removes whatever its id holds,
 * so the table ends as the store's own decisions, taken in Java from what was read, say it must. PostgreSQL's version
 * is one round trip whatever the batch size; the standard one (SQLite) runs in the process, where a statement costs
 * no round trip.
 */
abstract sealed class BatchSql permits BatchSql.Postgres, BatchSql.Standard {

    /** One write as the database applies it. */
    sealed interface Op permits InsertIfAbsent, Delete {
        long id();
    }

    record InsertIfAbsent(long id, Plant plant) implements Op {
    }

    record Delete(long id) implements Op {
    }

    private static final String INSERT = "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)";
    private static final String DELETE = "DELETE FROM plants WHERE id = ?";

    private final int queryTimeoutSeconds;
    final EventSql events;

    private BatchSql(int queryTimeoutSeconds, EventSql events) {
        this.queryTimeoutSeconds = queryTimeoutSeconds;
        this.events = events;
    }

    /**
     * The statements for the database behind {@code connection}; every statement gives up after the time-out. Each
     * write that takes effect records its events through {@code events} in the same transaction.
     */
    static BatchSql forDatabase(Connection connection, int queryTimeoutSeconds, EventSql events) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        return "PostgreSQL".equals(product)
                ? new Postgres(queryTimeoutSeconds, events)
                : new Standard(queryTimeoutSeconds, events, "SQLite".equals(product));
    }

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
     * other waits for.
     */
    abstract Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<Op> ops) throws SQLException;

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
            connection.commit();
        } catch (Throwable e) {
            rollbackQuietly(connection, e);
            throw e;
        }
    }

    /**
     * {@code ops} split so that no round holds an id twice: round k holds each id's (k+1)th write, in submission
     * order. Within a round the order of the writes no longer matters, so a round can go to the database as one
     * statement per kind of write.
     */
    static List<List<Op>> rounds(List<Op> ops) {
        List<List<Op>> rounds = new ArrayList<>();
        Map<Long, Integer> writesSoFar = new HashMap<>();
        for (Op op : ops) {
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

    /**
     * PostgreSQL: ids are locked with transaction-scoped advisory locks keyed by the plant id, which also cover ids
     * with no row yet (a row lock cannot). Other applications that take advisory locks in the same database share
     * the key space and may wait on ours, never corrupt them.
     */
    static final class Postgres extends BatchSql {

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

        private Postgres(int queryTimeoutSeconds, EventSql events) {
            super(queryTimeoutSeconds, events);
            this.round = events.postgresRound(ROUND);
        }

        /**
         * Every statement sent in one round trip with auto-commit on: PostgreSQL runs statements that arrive together
         * (before the protocol's Sync) as one implicit transaction, and commits it, or rolls all of it back, before it
         * answers. So the batch costs one round trip, the commit included.
         */
        @Override
        Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<Op> ops) throws SQLException {
            List<List<Op>> rounds = rounds(ops);
            connection.setAutoCommit(true);
            try (PreparedStatement batch = prepare(connection, LOCK_AND_READ + round.repeat(rounds.size()))) {
                int parameter = bindLockAndRead(connection, batch, sortedIds);
                for (List<Op> round : rounds) {
                    parameter = bindRound(connection, batch, parameter, round);
                }
                return executeLockAndRead(batch);
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
        private int bindRound(Connection connection, PreparedStatement statement, int first, List<Op> round)
                throws SQLException {
            List<Long> insertIds = new ArrayList<>();
            List<String> names = new ArrayList<>();
            List<String> tags = new ArrayList<>();
            List<Long> deleteIds = new ArrayList<>();
            for (Op op : round) {
                if (op instanceof InsertIfAbsent insert) {
                    insertIds.add(insert.id());
                    names.add(insert.plant().name());
                    tags.add(insert.plant().tag());
                } else {
                    deleteIds.add(op.id());
                }
            }
            statement.setArray(first, connection.createArrayOf("int8", insertIds.toArray()));
            statement.setArray(first + 1, connection.createArrayOf("text", names.toArray()));
            statement.setArray(first + 2, connection.createArrayOf("text", tags.toArray()));
            int next = events.bindCreated(connection, statement, first + 3);
            statement.setArray(next, connection.createArrayOf("int8", deleteIds.toArray()));
            return events.bindDeleted(connection, statement, next + 1);
        }
    }

    /**
     * SQLite and other databases: a statement per write, in submission order. SQLite lets one transaction write at a time and sees its own
     * snapshot, so the ids need no lock of their own; a write after another process changed the file fails rather
     * than overwrite it.
     */
    static final class Standard extends BatchSql {

        private static final String READ = "SELECT id, name, tag FROM plants WHERE id = ?";
        private static final String INSERT_IF_ABSENT =
                "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING";

        private final boolean sqlite;

        private Standard(int queryTimeoutSeconds, EventSql events, boolean sqlite) {
            super(queryTimeoutSeconds, events);
            this.sqlite = sqlite;
        }

        /**
         * SQLite appends every transaction, failed ones included, to its write-ahead log, and checkpoints only once it
         * holds a thousand pages: after a full disk the log would keep the space it grew into. A truncating checkpoint
         * copies what it holds into the database and cuts the file to nothing.
         */
        @Override
        void reclaimSpace(Connection connection) throws SQLException {
            if (!sqlite) {
                return;
            }
            connection.setAutoCommit(true);
            try (PreparedStatement checkpoint = prepare(connection, "PRAGMA wal_checkpoint(TRUNCATE)")) {
                checkpoint.execute();
            }
        }

        @Override
        Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<Op> ops) throws SQLException {
            connection.setAutoCommit(false);
            try {
                Map<Long, Plant> stored = lockAndRead(connection, sortedIds);
                try (PreparedStatement insert = prepare(connection, INSERT_IF_ABSENT);
                     PreparedStatement delete = prepare(connection, DELETE);
                     EventSql.Recorder recorder = events.recorder(connection)) {
                    for (Op op : ops) {
                        if (op instanceof InsertIfAbsent added) {
                            insert.setLong(1, added.id());
                            insert.setString(2, added.plant().name());
                            insert.setString(3, added.plant().tag());
                            recorder.created(insert.executeUpdate(), added.id(), added.plant());
                        } else {
                            delete.setLong(1, op.id());
                            recorder.deleted(delete.executeUpdate(), op.id());
                        }
                    }
                }
                connection.commit();
                return stored;
            } catch (Throwable e) {
                rollbackQuietly(connection, e);
                throw e;
            }
        }

        @Override
        Map<Long, Plant> lockAndRead(Connection connection, long[] sortedIds) throws SQLException {
            Map<Long, Plant> stored = new HashMap<>();
            try (PreparedStatement read = prepare(connection, READ)) {
                for (long id : sortedIds) {
                    read.setLong(1, id);
                    try (ResultSet row = read.executeQuery()) {
                        readInto(stored, row);
                    }
                }
            }
            return stored;
        }
    }
}
