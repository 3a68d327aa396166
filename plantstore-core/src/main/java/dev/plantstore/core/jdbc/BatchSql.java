package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.jdbc.Write.PlantOp;
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
 * is one round trip whatever the batch size; SQLite's runs in the process, where a statement costs no round trip.
 */
abstract class BatchSql {

    private static final String INSERT = "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)";
    static final String DELETE = "DELETE FROM plants WHERE id = ?";

    private final int queryTimeoutSeconds;
    final EventSql events;

    BatchSql(int queryTimeoutSeconds, EventSql events) {
        this.queryTimeoutSeconds = queryTimeoutSeconds;
        this.events = events;
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
     * other waits for. The events the writes record are written through {@code events}.
     */
    abstract Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<PlantOp> ops, EventSql.Batch events)
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

}
