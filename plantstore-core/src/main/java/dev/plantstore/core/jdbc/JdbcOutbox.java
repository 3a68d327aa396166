package dev.plantstore.core.jdbc;

import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * events report ({@link BatchEvents}), in the SQL of its database ({@link StoreSql}). A delivered event's row is
 * removed; one given up on is kept as undeliverable, for an operator to list and send again ({@link #givenUp},
 * {@link #redeliver}).
 *
 * <p>On PostgreSQL several processes claim from one table: a claim locks the rows it takes, so two claims never take
 * the same row, and leases them for {@link #LEASE}, so that a process that dies mid-delivery leaves its events to the
 * others once the lease has run out. SQLite's table has one process, whose store's writer runs the outbox's writes.
 */
public final class JdbcOutbox implements Outbox, Backlogs {

    /**
     * How the outbox's writes run: at once on PostgreSQL, whose rows lock one by one; on SQLite, by the store's writer
     * between its batches ({@link Write.OutboxWrite}).
     */
    interface Writes {
        <T> T run(Write.Work<T> work) throws SQLException;
    }

    /** Each write at once. */
    static final Writes AT_ONCE = new Writes() {
        @Override
        public <T> T run(Write.Work<T> work) throws SQLException {
            return work.run();
        }
    };

    private final DataSource dataSource;
    private final StoreSql sql;
    private final Writes writes;
    private final CommittedEvents committed;
    /**
     * Per receiver, the last seq a claim took: the next claim starts after it, so that it does not walk again through
     * the events in flight and the rows deleted since (on PostgreSQL, dead until vacuumed), and goes back to the start
     * only when the rest of the table has too few.
     */
    private final Map<String, Long> claimedUpTo = new ConcurrentHashMap<>();

    JdbcOutbox(DataSource dataSource, StoreSql sql, Writes writes, CommittedEvents committed) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
        this.sql = sql;
        this.writes = Objects.requireNonNull(writes, "null writes");
        this.committed = Objects.requireNonNull(committed, "null committed");
    }

    /**
     * The outbox of the store's database behind {@code dataSource}, for a process without the store (an operator's
     * command): its writes go at once, beside any server's.
     */
    public static JdbcOutbox of(DataSource dataSource, Dialect dialect) {
        return new JdbcOutbox(dataSource, dialect.sql(0), AT_ONCE, new CommittedEvents());
    }

    /** Where the store's batches publish their events; a process without the store has none to publish. */
    @Override
    public CommittedEvents committed() {
        return committed;
    }

    @Override
    public List<PlantEvent> claim(String receiver, long nowMillis, int max) {
        long after = claimedUpTo.getOrDefault(receiver, 0L);
        try {
            List<PlantEvent> claimed = writes.run(() -> {
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement update = connection.prepareStatement(sql.claim())) {
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
            StoreSql.readEvents(rows, claimed);
        }
        return claimed;
    }

    @Override
    public void delivered(List<PlantEvent> events) {
        onEvents(StoreSql.DELIVERED, Optional.empty(), events);
    }

    @Override
    public void reschedule(List<PlantEvent> events, long dueAtMillis, boolean afterFailure) {
        onEvents(afterFailure ? StoreSql.RESCHEDULE_AFTER_FAILURE : StoreSql.RESCHEDULE, Optional.of(dueAtMillis),
                events);
    }

    @Override
    public void giveUp(List<PlantEvent> events) {
        onEvents(StoreSql.GIVE_UP, Optional.empty(), events);
    }

    private void onEvents(String statement, Optional<Long> first, List<PlantEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        write(connection -> {
            sql.onEvents(connection, statement, first, events);
            return null;
        });
    }

    /** The receiver's row in {@code webhook_receivers_off} and its pending events given up on, in one transaction. */
    @Override
    public int turnOff(String receiver, long nowMillis) {
        return write(connection -> {
            connection.setAutoCommit(false);
            try (PreparedStatement off = connection.prepareStatement(StoreSql.TURN_OFF);
                 PreparedStatement giveUp = connection.prepareStatement(StoreSql.GIVE_UP_PENDING)) {
                off.setString(1, receiver);
                off.setLong(2, nowMillis);
                off.executeUpdate();
                giveUp.setString(1, receiver);
                int kept = giveUp.executeUpdate();
                connection.commit();
                return kept;
            } catch (SQLException | RuntimeException e) {
                StoreSql.rollbackQuietly(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        });
    }

    @Override
    public boolean isOff(String receiver) {
        return countWhere(StoreSql.IS_OFF, receiver) > 0;
    }

    /** Turns {@code receiver} (its key) on again after {@link #turnOff}; returns whether it was off. */
    public boolean turnOn(String receiver) {
        return write(connection -> {
            try (PreparedStatement on = connection.prepareStatement(StoreSql.TURN_ON)) {
                on.setString(1, receiver);
                return on.executeUpdate() > 0;
            }
        });
    }

    /** Up to {@code limit} events given up on, of {@code receiver} (its key) or of every receiver, oldest first. */
    public List<PlantEvent> givenUp(Optional<String> receiver, int limit) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(StoreSql.givenUp(receiver.isPresent()))) {
            int next = 1;
            if (receiver.isPresent()) {
                select.setString(next++, receiver.get());
            }
            select.setInt(next, Math.max(0, limit));
            List<PlantEvent> events = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                StoreSql.readEvents(rows, events);
            }
            return events;
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be read", e);
        }
    }

    /**
     * Makes every event given up on of {@code receiver} (its key), or of every receiver, pending again: due now, with
     * no failed attempt and its retry period starting at {@code nowMillis}. Returns how many.
     */
    public int redeliver(Optional<String> receiver, long nowMillis) {
        return write(connection -> {
            try (PreparedStatement update = connection.prepareStatement(StoreSql.redeliver(receiver.isPresent()))) {
                update.setLong(1, nowMillis);
                if (receiver.isPresent()) {
                    update.setString(2, receiver.get());
                }
                return update.executeUpdate();
            }
        });
    }

    /** Work on a connection of its own. */
    @FunctionalInterface
    private interface OnConnection<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T write(OnConnection<T> work) {
        try {
            return writes.run(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    return work.run(connection);
                }
            });
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    @Override
    public Backlogs backlogs() {
        return this;
    }

    @Override
    public Backlog counted(String receiver) {
        return new Backlog(countWhere(StoreSql.PENDING_COUNT, receiver), oldestRecordedAt(receiver));
    }

    @Override
    public Optional<Backlog> withoutScan(String receiver) {
        return Optional.empty();
    }

    @Override
    public long oldestRecordedAt(String receiver) {
        return countWhere(StoreSql.OLDEST_PENDING, receiver);
    }

    private long countWhere(String query, String receiver) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(query)) {
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
