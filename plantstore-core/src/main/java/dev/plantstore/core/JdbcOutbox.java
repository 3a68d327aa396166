package dev.plantstore.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The outbox in table {@code webhook_outbox}, which the store's batches write in the transaction of the writes the
 * events report ({@link EventSql}). A delivered event's row is removed; an undeliverable one is kept with state 1.
 *
 * <p>On PostgreSQL several processes claim from one table: a claim locks the rows it takes ({@code FOR UPDATE SKIP
 * LOCKED}, so two claims never take the same row) and leases them for {@link #LEASE}, so that a process that dies
 * mid-delivery leaves its events to the others once the lease has run out. SQLite's table has one process.
 */
final class JdbcOutbox implements Outbox {

    private static final int PENDING = 0;
    private static final int UNDELIVERABLE = 1;

    private static final String CLAIM = "UPDATE webhook_outbox SET leased_until = ? WHERE seq IN ("
            + "SELECT o.seq FROM webhook_outbox o WHERE o.receiver = ? AND o.state = " + PENDING
            + " AND o.due_at <= ? AND o.leased_until <= ? AND NOT EXISTS (SELECT 1 FROM webhook_outbox e "
            + "WHERE e.receiver = o.receiver AND e.plant_id = o.plant_id AND e.state = " + PENDING + " AND e.seq < o.seq) "
            + "ORDER BY o.seq LIMIT ?%s) RETURNING seq, plant_id, type, name, tag, recorded_at, attempts";

    private final DataSource dataSource;
    private final String claim;

    private JdbcOutbox(DataSource dataSource, boolean postgres) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
        this.claim = CLAIM.formatted(postgres ? " FOR UPDATE SKIP LOCKED" : "");
    }

    static JdbcOutbox on(DataSource dataSource, Connection connection) throws SQLException {
        return new JdbcOutbox(dataSource, isPostgres(connection));
    }

    static boolean isPostgres(Connection connection) throws SQLException {
        return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
    }

    /**
     * Creates the table when missing. Every release that knows it creates it, and one that does not ignores it, so it
     * needs no schema version of its own. The partial indexes serve the claim: pending events in order, and the
     * earliest pending one of a plant id.
     */
    static void ensureTable(Connection connection, Statement statement) throws SQLException {
        String seq = isPostgres(connection) ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY AUTOINCREMENT";
        statement.execute("CREATE TABLE IF NOT EXISTS webhook_outbox (" + seq + ", receiver TEXT NOT NULL, "
                + "plant_id BIGINT NOT NULL, type TEXT NOT NULL, name TEXT, tag TEXT, recorded_at BIGINT NOT NULL, "
                + "attempts INTEGER NOT NULL DEFAULT 0, due_at BIGINT NOT NULL DEFAULT 0, "
                + "leased_until BIGINT NOT NULL DEFAULT 0, state INTEGER NOT NULL DEFAULT " + PENDING + ")");
        statement.execute("CREATE INDEX IF NOT EXISTS webhook_outbox_pending ON webhook_outbox (receiver, seq) "
                + "WHERE state = " + PENDING);
        statement.execute("CREATE INDEX IF NOT EXISTS webhook_outbox_pending_by_plant "
                + "ON webhook_outbox (receiver, plant_id, seq) WHERE state = " + PENDING);
    }

    @Override
    public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(claim)) {
            update.setLong(1, nowMillis + LEASE.toMillis());
            update.setString(2, receiver);
            update.setLong(3, nowMillis);
            update.setLong(4, nowMillis);
            update.setInt(5, max);
            List<PlantEvent> claimed = new ArrayList<>();
            try (ResultSet rows = update.executeQuery()) {
                while (rows.next()) {
                    String name = rows.getString(4);
                    Plant plant = name == null ? null : new Plant(name, rows.getString(5));
                    claimed.add(new PlantEvent(rows.getLong(1), receiver, rows.getLong(2), rows.getString(3), plant,
                            rows.getLong(6), rows.getInt(7)));
                }
            }
            claimed.sort(Comparator.comparingLong(PlantEvent::seq));
            return claimed;
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be read", e);
        }
    }

    @Override
    public void delivered(List<PlantEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement delete = connection.prepareStatement("DELETE FROM webhook_outbox WHERE seq = ?")) {
            connection.setAutoCommit(false);
            for (PlantEvent event : events) {
                delete.setLong(1, event.seq());
                delete.addBatch();
            }
            delete.executeBatch();
            connection.commit();
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    @Override
    public void retryAt(PlantEvent event, long atMillis) {
        update("UPDATE webhook_outbox SET attempts = attempts + 1, due_at = ?, leased_until = 0 WHERE seq = ?",
                atMillis, event.seq());
    }

    @Override
    public void undeliverable(PlantEvent event) {
        update("UPDATE webhook_outbox SET attempts = attempts + 1, state = " + UNDELIVERABLE
                + ", leased_until = 0 WHERE seq = ?", event.seq());
    }

    private void update(String sql, long... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                update.setLong(i + 1, parameters[i]);
            }
            update.executeUpdate();
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    @Override
    public Backlog backlog(String receiver) {
        long[] row = countWhere("SELECT count(*), coalesce(min(recorded_at), 0) FROM webhook_outbox "
                + "WHERE receiver = ? AND state = " + PENDING, receiver);
        return new Backlog(row[0], row[1]);
    }

    @Override
    public long undeliverableCount(String receiver) {
        return countWhere("SELECT count(*), 0 FROM webhook_outbox WHERE receiver = ? AND state = " + UNDELIVERABLE,
                receiver)[0];
    }

    private long[] countWhere(String sql, String receiver) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, receiver);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return new long[] {row.getLong(1), row.getLong(2)};
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be read", e);
        }
    }
}
