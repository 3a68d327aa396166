package dev.plantstore.core.jdbc;

import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * The outbox in table {@code webhook_outbox}, which the store's batches write in the transaction of the writes the
 * events report ({@link EventSql}). A delivered event's row is removed; an undeliverable one is kept with state 1.
 *
 * <p>On PostgreSQL several processes claim from one table: a claim locks the rows it takes ({@code FOR UPDATE SKIP
 * LOCKED}, so two claims never take the same row) and leases them for {@link #LEASE}, so that a process that dies
 * mid-delivery leaves its events to the others once the lease has run out. SQLite's table has one process.
 */
public final class JdbcOutbox implements Outbox {

    public static final int PENDING = 0;
    public static final int UNDELIVERABLE = 1;

    /**
     * The pending events a claim may take, from {@code seq > ?} on: due, not leased, each the earliest pending one of
     * its plant id, in order. PostgreSQL's version is wrapped in {@code ARRAY(...)}: the driver prepares a statement
     * on the server after five runs, and PostgreSQL's generic plan for {@code seq IN (... LIMIT $n)} joined the
     * update to a scan of the whole table, which made a claim's cost grow with the backlog (715 ms a claim at 500,000
     * pending events); an array of seqs is always looked up in the primary key. "The earliest of its plant" is a
     * scalar subquery, which is always one look into the by-plant index; written as NOT EXISTS, the generic plan of a
     * table without statistics compared every pending row of the receiver with each candidate (1.2 s a claim at
     * 50,000 pending events, against 5 ms).
     */
    private static final String CLAIMABLE = "SELECT o.seq FROM webhook_outbox o WHERE o.receiver = ? AND o.state = "
            + PENDING + " AND o.seq > ? AND o.due_at <= ? AND o.leased_until <= ? AND o.seq = (SELECT min(e.seq) FROM "
            + "webhook_outbox e WHERE e.receiver = o.receiver AND e.plant_id = o.plant_id AND e.state = " + PENDING
            + ") ORDER BY o.seq LIMIT ?";
    private static final String CLAIM_POSTGRES = "UPDATE webhook_outbox SET leased_until = ? WHERE seq = ANY (ARRAY("
            + CLAIMABLE + " FOR UPDATE SKIP LOCKED)) RETURNING " + EventSql.EVENT_COLUMNS;
    private static final String CLAIM_SQLITE = "UPDATE webhook_outbox SET leased_until = ? WHERE seq IN ("
            + CLAIMABLE + ") RETURNING " + EventSql.EVENT_COLUMNS;

    /** When an operator's redelivery started the event's retry period again; 0 while it runs from the write. */
    private static final String RETRY_FROM = "retry_from BIGINT NOT NULL DEFAULT 0";

    private final DataSource dataSource;
    private final boolean postgres;
    /**
     * Per receiver, the last seq a claim took: the next claim starts after it, so that it does not walk again through
     * the events in flight and the rows deleted since (on PostgreSQL, dead until vacuumed), and goes back to the start
     * only when the rest of the table has too few.
     */
    private final Map<String, Long> claimedUpTo = new ConcurrentHashMap<>();

    private final Writes writes;

    /**
     * How the outbox's writes run: at once on PostgreSQL, whose rows lock one by one; on SQLite, by the store's writer
     * between its batches ({@link Write.OutboxWrite}).
     */
    interface Writes {
        <T> T run(Write.Work<T> work) throws SQLException;
    }

    /** The writes of PostgreSQL, each at once. */
    static final Writes AT_ONCE = new Writes() {
        @Override
        public <T> T run(Write.Work<T> work) throws SQLException {
            return work.run();
        }
    };

    JdbcOutbox(DataSource dataSource, Dialect dialect, Writes writes) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
        this.postgres = dialect == Dialect.POSTGRESQL;
        this.writes = Objects.requireNonNull(writes, "null writes");
    }

    /**
     * Creates the table as schema version 1 left it, when missing, and adds a column of version 1 to a table of an
     * earlier release of it that lacks the column; run by {@link Schema}'s steps. The partial indexes serve the claim:
     * pending events in order, and the earliest pending one of a plant id.
     */
    static void ensureTable(Statement statement, Dialect dialect) throws SQLException {
        boolean postgres = dialect == Dialect.POSTGRESQL;
        String seq = postgres ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY AUTOINCREMENT";
        statement.execute("CREATE TABLE IF NOT EXISTS webhook_outbox (" + seq + ", receiver TEXT NOT NULL, "
                + "plant_id BIGINT NOT NULL, type TEXT NOT NULL, name TEXT, tag TEXT, recorded_at BIGINT NOT NULL, "
                + "attempts INTEGER NOT NULL DEFAULT 0, due_at BIGINT NOT NULL DEFAULT 0, "
                + "leased_until BIGINT NOT NULL DEFAULT 0, state INTEGER NOT NULL DEFAULT " + PENDING + ", "
                + RETRY_FROM + ")");
        if (postgres) {
            statement.execute("ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS " + RETRY_FROM);
        } else if (!sqliteHasRetryFrom(statement)) {
            statement.execute("ALTER TABLE webhook_outbox ADD COLUMN " + RETRY_FROM);
        }
        statement.execute("CREATE INDEX IF NOT EXISTS webhook_outbox_pending ON webhook_outbox (receiver, seq) "
                + "WHERE state = " + PENDING);
        statement.execute("CREATE INDEX IF NOT EXISTS webhook_outbox_pending_by_plant "
                + "ON webhook_outbox (receiver, plant_id, seq) WHERE state = " + PENDING);
    }

    private static boolean sqliteHasRetryFrom(Statement statement) throws SQLException {
        try (ResultSet columns = statement.executeQuery("PRAGMA table_info(webhook_outbox)")) {
            while (columns.next()) {
                if ("retry_from".equals(columns.getString("name"))) {
                    return true;
                }
            }
            return false;
        }
    }

    @Override
    public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
        long after = claimedUpTo.getOrDefault(receiver, 0L);
        try {
            List<PlantEvent> claimed = writes.run(() -> {
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement update = connection.prepareStatement(postgres ? CLAIM_POSTGRES : CLAIM_SQLITE)) {
                    List<PlantEvent> page = claimAfter(update, receiver, nowMillis, max, after);
                    if (page.size() < max && after > 0) {
                        page.addAll(claimAfter(update, receiver, nowMillis, max - page.size(), 0));
                    }
                    return page;
                }
            });
            claimed.sort(Comparator.comparingLong(PlantEvent::seq));
            claimedUpTo.put(receiver, claimed.size() < max ? 0L : claimed.get(claimed.size() - 1).seq());
            return claimed;
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be read", e);
        }
    }

    private static List<PlantEvent> claimAfter(PreparedStatement update, String receiver, long nowMillis, int max,
                                               long after) throws SQLException {
        update.setLong(1, nowMillis + LEASE.toMillis());
        update.setString(2, receiver);
        update.setLong(3, after);
        update.setLong(4, nowMillis);
        update.setLong(5, nowMillis);
        update.setInt(6, max);
        List<PlantEvent> claimed = new ArrayList<>();
        try (ResultSet rows = update.executeQuery()) {
            EventSql.readEvents(rows, claimed);
        }
        return claimed;
    }

    @Override
    public void delivered(List<PlantEvent> events) {
        forEachSeq("DELETE FROM webhook_outbox", events);
    }

    @Override
    public void release(List<PlantEvent> events) {
        forEachSeq("UPDATE webhook_outbox SET leased_until = 0", events);
    }

    /** {@code statement} on the rows of {@code events}: one statement on PostgreSQL, one transaction on SQLite. */
    private void forEachSeq(String statement, List<PlantEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        try {
            writes.run(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    if (postgres) {
                        try (PreparedStatement all = connection.prepareStatement(statement
                                + " WHERE seq = ANY (?::bigint[])")) {
                            all.setArray(1, connection.createArrayOf("int8", seqs(events)));
                            all.executeUpdate();
                        }
                        return null;
                    }
                    try (PreparedStatement each = connection.prepareStatement(statement + " WHERE seq = ?")) {
                        for (PlantEvent event : events) {
                            each.setLong(1, event.seq());
                            each.addBatch();
                        }
                        connection.setAutoCommit(false);
                        each.executeBatch();
                        connection.commit();
                        return null;
                    }
                }
            });
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    private static Long[] seqs(List<PlantEvent> events) {
        return events.stream().map(PlantEvent::seq).toArray(Long[]::new);
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

    @Override
    public void refile(String fullUrl, String key) {
        try {
            writes.run(() -> {
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement update = connection.prepareStatement(
                             "UPDATE webhook_outbox SET receiver = ? WHERE receiver = ? AND state = " + PENDING)) {
                    update.setString(1, key);
                    update.setString(2, fullUrl);
                    return update.executeUpdate();
                }
            });
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    private void update(String sql, long... parameters) {
        try {
            writes.run(() -> {
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement update = connection.prepareStatement(sql)) {
                    for (int i = 0; i < parameters.length; i++) {
                        update.setLong(i + 1, parameters[i]);
                    }
                    return update.executeUpdate();
                }
            });
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    @Override
    public Backlog backlog(String receiver) {
        return new Backlog(countWhere("SELECT count(*) FROM webhook_outbox WHERE receiver = ? AND state = " + PENDING,
                receiver), oldestRecordedAt(receiver));
    }

    @Override
    public Optional<Backlog> backlogWithoutScan(String receiver) {
        return Optional.empty();
    }

    /** The earliest seq is the oldest event: a look at the head of the pending index, whatever the backlog. */
    @Override
    public long oldestRecordedAt(String receiver) {
        return countWhere("SELECT coalesce((SELECT recorded_at FROM webhook_outbox WHERE receiver = ? AND state = "
                + PENDING + " ORDER BY seq LIMIT 1), 0)", receiver);
    }

    @Override
    public long undeliverableCount(String receiver) {
        return countWhere("SELECT count(*) FROM webhook_outbox WHERE receiver = ? AND state = " + UNDELIVERABLE,
                receiver);
    }

    private long countWhere(String sql, String receiver) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, receiver);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be read", e);
        }
    }
}
