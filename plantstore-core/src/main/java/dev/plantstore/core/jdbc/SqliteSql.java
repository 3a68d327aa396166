package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQL for SQLite: a statement per write, in submission order, and one per event it records. SQLite lets one
 * transaction write at a time and sees its own snapshot, so the ids need no lock of their own; a write after another
 * process changed the file fails rather than overwrite it. One process has the outbox's table.
 */
final class SqliteSql extends StoreSql {

    /** One event of a batch's write, for one receiver; SQLite's batch runs a statement per write. */
    static final String RECORD_EVENT = "INSERT INTO webhook_outbox "
            + "(receiver, plant_id, type, name, tag, recorded_at, leased_until, traceparent, tracestate) "
            + "SELECT ?1, ?2, ?3, ?4, ?5, ?6, " + LEASE_UNLESS_BEHIND.formatted("?1", "?2", "?7") + ", ?8, ?9 "
            + "RETURNING " + EVENT_COLUMNS;

    private static final String CLAIM = "UPDATE webhook_outbox SET leased_until = ? WHERE seq IN ("
            + CLAIMABLE + ") RETURNING " + EVENT_COLUMNS;

    @Override
    String seqColumn() {
        return "seq INTEGER PRIMARY KEY AUTOINCREMENT";
    }

    @Override
    void addRetryFromWhenMissing(Statement statement) throws SQLException {
        try (ResultSet columns = statement.executeQuery("PRAGMA table_info(webhook_outbox)")) {
            while (columns.next()) {
                if ("retry_from".equals(columns.getString("name"))) {
                    return;
                }
            }
        }
        statement.execute("ALTER TABLE webhook_outbox ADD COLUMN " + RETRY_FROM);
    }

    @Override
    String claim() {
        return CLAIM;
    }

    /** A statement per event, in one transaction. */
    @Override
    void onEvents(Connection connection, String statement, Optional<Long> first, List<PlantEvent> events)
            throws SQLException {
        try (PreparedStatement each = connection.prepareStatement(statement + " WHERE seq = ?")) {
            int seqAt = first.isPresent() ? 2 : 1;
            for (PlantEvent event : events) {
                if (first.isPresent()) {
                    each.setLong(1, first.get());
                }
                each.setLong(seqAt, event.seq());
                each.addBatch();
            }
            connection.setAutoCommit(false);
            each.executeBatch();
            connection.commit();
        }
    }

    private static final String READ = "SELECT id, name, tag FROM plants WHERE id = ?";
    private static final String INSERT_IF_ABSENT =
            "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING";

    SqliteSql(int queryTimeoutSeconds) {
        super(queryTimeoutSeconds);
    }

    /**
     * SQLite appends every transaction, failed ones included, to its write-ahead log, and checkpoints only once it
     * holds a thousand pages: after a full disk the log would keep the space it grew into. A truncating checkpoint
     * copies what it holds into the database and cuts the file to nothing.
     */
    @Override
    void reclaimSpace(Connection connection) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement checkpoint = prepare(connection, "PRAGMA wal_checkpoint(TRUNCATE)")) {
            checkpoint.execute();
        }
    }

    @Override
    Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<PlantOp> ops, EventSql.Batch events)
            throws SQLException {
        connection.setAutoCommit(false);
        try {
            Map<Long, Plant> stored = lockAndRead(connection, sortedIds);
            try (PreparedStatement insert = prepare(connection, INSERT_IF_ABSENT);
                 PreparedStatement delete = prepare(connection, DELETE);
                 EventSql.Batch.Recorder recorder = events.recorder(connection)) {
                for (PlantOp op : ops) {
                    if (op instanceof PlantOp.InsertIfAbsent added) {
                        insert.setLong(1, added.id());
                        insert.setString(2, added.plant().name());
                        insert.setString(3, added.plant().tag());
                        recorder.created(insert.executeUpdate(), added);
                    } else {
                        delete.setLong(1, op.id());
                        recorder.deleted(delete.executeUpdate(), op);
                    }
                }
            }
            commitTransaction(connection);
            return stored;
        } catch (CommitNotReplicatedException e) {
            throw e;
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
