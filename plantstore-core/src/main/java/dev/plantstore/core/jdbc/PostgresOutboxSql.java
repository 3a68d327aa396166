package dev.plantstore.core.jdbc;

import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/** The outbox's SQL as PostgreSQL speaks it, where several processes claim from one table. */
final class PostgresOutboxSql extends OutboxSql {

    /**
     * A batch's round with events: each write is one data-modifying statement whose {@code RETURNING} rows (only the
     * rows really inserted or deleted) feed the event insert, so the batch stays one round trip. A row returned finds
     * its write's trace by id, which a round holds once.
     */
    static final String RECORDING_ROUND = "; WITH stored AS (INSERT INTO plants (id, name, tag) "
            + "SELECT id, name, tag FROM unnest(?::bigint[], ?::text[], ?::text[]) AS added (id, name, tag) "
            + "ON CONFLICT (id) DO NOTHING RETURNING id, name, tag) "
            + "INSERT INTO webhook_outbox (receiver, plant_id, type, name, tag, recorded_at, leased_until, "
            + "traceparent, tracestate) SELECT receiver, id, '" + PlantEvent.CREATED + "', name, tag, ?, "
            + LEASE_UNLESS_BEHIND.formatted("receivers.receiver", "stored.id", "receivers.lease") + ", "
            + "traces.traceparent, traces.tracestate FROM stored "
            + "JOIN unnest(?::bigint[], ?::text[], ?::text[]) AS traces (id, traceparent, tracestate) USING (id) "
            + "CROSS JOIN unnest(?::text[], ?::bigint[]) AS receivers (receiver, lease) "
            + "RETURNING " + EVENT_COLUMNS + "; "
            + "WITH removed AS (DELETE FROM plants WHERE id = ANY (?::bigint[]) RETURNING id) "
            + "INSERT INTO webhook_outbox (receiver, plant_id, type, recorded_at, leased_until, traceparent, "
            + "tracestate) SELECT receiver, id, '" + PlantEvent.DELETED + "', ?, "
            + LEASE_UNLESS_BEHIND.formatted("receivers.receiver", "removed.id", "receivers.lease") + ", "
            + "traces.traceparent, traces.tracestate FROM removed "
            + "JOIN unnest(?::bigint[], ?::text[], ?::text[]) AS traces (id, traceparent, tracestate) USING (id) "
            + "CROSS JOIN unnest(?::text[], ?::bigint[]) AS receivers (receiver, lease) RETURNING " + EVENT_COLUMNS;

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
}
