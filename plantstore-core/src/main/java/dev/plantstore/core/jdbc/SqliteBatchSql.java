package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.jdbc.Write.PlantOp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQL for SQLite: a statement per write, in submission order. SQLite lets one transaction write at a time and
 * sees its own snapshot, so the ids need no lock of their own; a write after another process changed the file fails
 * rather than overwrite it.
 */
final class SqliteBatchSql extends BatchSql {

    private static final String READ = "SELECT id, name, tag FROM plants WHERE id = ?";
    private static final String INSERT_IF_ABSENT =
            "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING";

    SqliteBatchSql(int queryTimeoutSeconds, EventSql events) {
        super(queryTimeoutSeconds, events);
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
