package dev.plantstore.core.jdbc;

import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/** The outbox's SQL as SQLite speaks it, where one process has the table. */
final class SqliteOutboxSql extends OutboxSql {

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
}
