package dev.plantstore.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements one group-commit transaction runs: lock the batch's ids and read what they hold, then write the net
 * change. PostgreSQL's version takes one round trip for each of the two whatever the batch size; the standard one
 * (SQLite) runs in the process, where a statement per row costs no round trip.
 */
abstract sealed class BatchSql permits BatchSql.Postgres, BatchSql.Standard {

    /** What a batch changes: every id at most once, so the three kinds never touch the same row. */
    record Changes(List<Row> inserts, List<Row> updates, List<Long> deletes) {

        Changes {
            inserts = List.copyOf(inserts);
            updates = List.copyOf(updates);
            deletes = List.copyOf(deletes);
        }

        /** The rows to write so that a table holding {@code before} for {@code ids} holds {@code after}. */
        static Changes between(long[] ids, Map<Long, Plant> before, Map<Long, Plant> after) {
            List<Row> inserts = new ArrayList<>();
            List<Row> updates = new ArrayList<>();
            List<Long> deletes = new ArrayList<>();
            for (long id : ids) {
                Plant was = before.get(id);
                Plant is = after.get(id);
                if (is == null) {
                    if (was != null) {
                        deletes.add(id);
                    }
                } else if (was == null) {
                    inserts.add(new Row(id, is));
                } else if (!was.equals(is)) {
                    updates.add(new Row(id, is));
                }
            }
            return new Changes(inserts, updates, deletes);
        }

        boolean isEmpty() {
            return inserts.isEmpty() && updates.isEmpty() && deletes.isEmpty();
        }
    }

    record Row(long id, Plant plant) {
    }

    private final int queryTimeoutSeconds;

    private BatchSql(int queryTimeoutSeconds) {
        this.queryTimeoutSeconds = queryTimeoutSeconds;
    }

    /** The statements for the database behind {@code connection}; every statement gives up after the time-out. */
    static BatchSql forDatabase(Connection connection, int queryTimeoutSeconds) throws SQLException {
        return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())
                ? new Postgres(queryTimeoutSeconds)
                : new Standard(queryTimeoutSeconds);
    }

    /**
     * Makes every other writer that locks ids through this class wait for this transaction before it touches any of
     * {@code sortedIds}, then reads the plants stored under them; an id with none is absent from the map. Taking the
     * locks in ascending order in every transaction is what keeps two instances from each holding what the other
     * waits for.
     */
    abstract Map<Long, Plant> lockAndRead(Connection connection, long[] sortedIds) throws SQLException;

    abstract void apply(Connection connection, Changes changes) throws SQLException;

    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setQueryTimeout(queryTimeoutSeconds);
        return statement;
    }

    /**
     * PostgreSQL: ids are locked with transaction-scoped advisory locks keyed by the plant id, which also cover ids
     * with no row yet (a row lock cannot). Other applications that take advisory locks in the same database share
     * the key space and may wait on ours, never corrupt them.
     */
    static final class Postgres extends BatchSql {

        /**
         * Two statements sent together, one round trip: the second takes its snapshot only once the first has every
         * lock, so it sees what the writers it waited for committed. unnest yields the array in order and nothing
         * sorts it again, so the locks are taken in the order given.
         */
        private static final String LOCK_AND_READ =
                "SELECT count(pg_advisory_xact_lock(id)) FROM unnest(?::bigint[]) AS ids (id); "
                + "SELECT id, name, tag FROM plants WHERE id = ANY (?::bigint[])";
        private static final String APPLY = "WITH removed AS (DELETE FROM plants WHERE id = ANY (?::bigint[])), "
                + "replaced AS (UPDATE plants SET name = changed.name, tag = changed.tag "
                + "FROM unnest(?::bigint[], ?::text[], ?::text[]) AS changed (id, name, tag) "
                + "WHERE plants.id = changed.id) "
                + "INSERT INTO plants (id, name, tag) "
                + "SELECT id, name, tag FROM unnest(?::bigint[], ?::text[], ?::text[]) AS added (id, name, tag)";

        private Postgres(int queryTimeoutSeconds) {
            super(queryTimeoutSeconds);
        }

        @Override
        Map<Long, Plant> lockAndRead(Connection connection, long[] sortedIds) throws SQLException {
            Map<Long, Plant> stored = new HashMap<>();
            try (PreparedStatement lockAndRead = prepare(connection, LOCK_AND_READ)) {
                var ids = connection.createArrayOf("int8", boxed(sortedIds));
                lockAndRead.setArray(1, ids);
                lockAndRead.setArray(2, ids);
                lockAndRead.execute();
                if (!lockAndRead.getMoreResults()) {
                    throw new SQLException("the read after the locks gave no result set");
                }
                try (ResultSet rows = lockAndRead.getResultSet()) {
                    while (rows.next()) {
                        stored.put(rows.getLong(1), new Plant(rows.getString(2), rows.getString(3)));
                    }
                }
            }
            return stored;
        }

        @Override
        void apply(Connection connection, Changes changes) throws SQLException {
            try (PreparedStatement apply = prepare(connection, APPLY)) {
                apply.setArray(1, connection.createArrayOf("int8", changes.deletes().toArray(new Long[0])));
                setRows(connection, apply, 2, changes.updates());
                setRows(connection, apply, 5, changes.inserts());
                apply.executeUpdate();
            }
        }

        private static void setRows(Connection connection, PreparedStatement statement, int first, List<Row> rows)
                throws SQLException {
            Long[] ids = new Long[rows.size()];
            String[] names = new String[rows.size()];
            String[] tags = new String[rows.size()];
            for (int i = 0; i < ids.length; i++) {
                Row row = rows.get(i);
                ids[i] = row.id();
                names[i] = row.plant().name();
                tags[i] = row.plant().tag();
            }
            statement.setArray(first, connection.createArrayOf("int8", ids));
            statement.setArray(first + 1, connection.createArrayOf("text", names));
            statement.setArray(first + 2, connection.createArrayOf("text", tags));
        }

        private static Long[] boxed(long[] ids) {
            Long[] boxed = new Long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                boxed[i] = ids[i];
            }
            return boxed;
        }
    }

    /**
     * SQLite and other databases: a statement per row. SQLite lets one transaction write at a time and sees its own
     * snapshot, so the ids need no lock of their own; a write after another process changed the file fails rather
     * than overwrite it.
     */
    static final class Standard extends BatchSql {

        private static final String READ = "SELECT name, tag FROM plants WHERE id = ?";
        private static final String INSERT = "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)";
        private static final String UPDATE = "UPDATE plants SET name = ?, tag = ? WHERE id = ?";
        private static final String DELETE = "DELETE FROM plants WHERE id = ?";

        private Standard(int queryTimeoutSeconds) {
            super(queryTimeoutSeconds);
        }

        @Override
        Map<Long, Plant> lockAndRead(Connection connection, long[] sortedIds) throws SQLException {
            Map<Long, Plant> stored = new HashMap<>();
            try (PreparedStatement read = prepare(connection, READ)) {
                for (long id : sortedIds) {
                    read.setLong(1, id);
                    try (ResultSet row = read.executeQuery()) {
                        if (row.next()) {
                            stored.put(id, new Plant(row.getString(1), row.getString(2)));
                        }
                    }
                }
            }
            return stored;
        }

        @Override
        void apply(Connection connection, Changes changes) throws SQLException {
            executeBatch(connection, DELETE, changes.deletes(), (delete, id) -> delete.setLong(1, id));
            executeBatch(connection, UPDATE, changes.updates(), (update, row) -> {
                update.setString(1, row.plant().name());
                update.setString(2, row.plant().tag());
                update.setLong(3, row.id());
            });
            executeBatch(connection, INSERT, changes.inserts(), (insert, row) -> {
                insert.setLong(1, row.id());
                insert.setString(2, row.plant().name());
                insert.setString(3, row.plant().tag());
            });
        }

        private interface Binder<T> {
            void bind(PreparedStatement statement, T value) throws SQLException;
        }

        private <T> void executeBatch(Connection connection, String sql, List<T> values, Binder<T> binder)
                throws SQLException {
            if (values.isEmpty()) {
                return;
            }
            try (PreparedStatement statement = prepare(connection, sql)) {
                for (T value : values) {
                    binder.bind(statement, value);
                    statement.addBatch();
                }
                statement.executeBatch();
            }
        }
    }
}
