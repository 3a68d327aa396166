package dev.plantstore.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * What a batch adds to its transaction to record webhook events in {@code webhook_outbox}: one row per receiver for
 * each create that stored a plant and each delete that removed one, so that the event commits, or rolls back, with
 * the write it reports. With no receiver it adds nothing, and a batch costs what it did without webhooks.
 */
final class EventSql {

    static final EventSql NONE = new EventSql(List.of());

    /**
     * PostgreSQL's round with events: each write is one data-modifying statement whose {@code RETURNING} rows (only
     * the rows really inserted or deleted) feed the event insert, so the batch stays one round trip.
     */
    private static final String POSTGRES_ROUND = "; WITH stored AS (INSERT INTO plants (id, name, tag) "
            + "SELECT id, name, tag FROM unnest(?::bigint[], ?::text[], ?::text[]) AS added (id, name, tag) "
            + "ON CONFLICT (id) DO NOTHING RETURNING id, name, tag) "
            + "INSERT INTO webhook_outbox (receiver, plant_id, type, name, tag, recorded_at) "
            + "SELECT receiver, id, '" + PlantEvent.CREATED + "', name, tag, ? FROM stored "
            + "CROSS JOIN unnest(?::text[]) AS receivers (receiver); "
            + "WITH removed AS (DELETE FROM plants WHERE id = ANY (?::bigint[]) RETURNING id) "
            + "INSERT INTO webhook_outbox (receiver, plant_id, type, recorded_at) "
            + "SELECT receiver, id, '" + PlantEvent.DELETED + "', ? FROM removed "
            + "CROSS JOIN unnest(?::text[]) AS receivers (receiver)";

    private static final String INSERT_EVENT =
            "INSERT INTO webhook_outbox (receiver, plant_id, type, name, tag, recorded_at) VALUES (?, ?, ?, ?, ?, ?)";

    private final List<String> receivers;

    EventSql(List<String> receivers) {
        this.receivers = List.copyOf(receivers);
    }

    boolean records() {
        return !receivers.isEmpty();
    }

    /** PostgreSQL's round with events, in place of {@code plain} when there is a receiver. */
    String postgresRound(String plain) {
        return records() ? POSTGRES_ROUND : plain;
    }

    /** Binds the created events' parameters after a round's inserts; returns the next parameter's index. */
    int bindCreated(Connection connection, PreparedStatement statement, int next) throws SQLException {
        return bindEvents(connection, statement, next);
    }

    /** Binds the deleted events' parameters after a round's deletes; returns the next parameter's index. */
    int bindDeleted(Connection connection, PreparedStatement statement, int next) throws SQLException {
        return bindEvents(connection, statement, next);
    }

    private int bindEvents(Connection connection, PreparedStatement statement, int next) throws SQLException {
        if (!records()) {
            return next;
        }
        statement.setLong(next, System.currentTimeMillis());
        statement.setArray(next + 1, connection.createArrayOf("text", receivers.toArray()));
        return next + 2;
    }

    /** For a database that runs a statement per write: records the events of one batch, after each write. */
    Recorder recorder(Connection connection) {
        return new Recorder(connection);
    }

    /** Prepares its statement on its first event; closing it closes that statement. */
    final class Recorder implements AutoCloseable {

        private final Connection connection;
        private PreparedStatement insert;

        private Recorder(Connection connection) {
            this.connection = connection;
        }

        /** The plant was stored: {@code changed} rows say whether it was. */
        void created(int changed, long id, Plant plant) throws SQLException {
            if (changed > 0) {
                record(PlantEvent.CREATED, id, plant);
            }
        }

        /** A delete of {@code id} removed {@code changed} rows. */
        void deleted(int changed, long id) throws SQLException {
            if (changed > 0) {
                record(PlantEvent.DELETED, id, null);
            }
        }

        private void record(String type, long id, Plant plant) throws SQLException {
            if (!records()) {
                return;
            }
            if (insert == null) {
                insert = connection.prepareStatement(INSERT_EVENT);
            }
            long now = System.currentTimeMillis();
            for (String receiver : receivers) {
                insert.setString(1, receiver);
                insert.setLong(2, id);
                insert.setString(3, type);
                insert.setString(4, plant == null ? null : plant.name());
                insert.setString(5, plant == null ? null : plant.tag());
                insert.setLong(6, now);
                insert.executeUpdate();
            }
        }

        @Override
        public void close() throws SQLException {
            if (insert != null) {
                insert.close();
            }
        }
    }
}
