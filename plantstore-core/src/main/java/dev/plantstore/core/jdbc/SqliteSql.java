package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.jdbc.BatchEvents.Batch;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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

    /** How often the copy of version 2's step says how far it is. */
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    private static final int COPY_CHUNK = 50_000;
    private static final System.Logger LOG = System.getLogger(SqliteSql.class.getName());

    /** One event of a batch's write, for one receiver; SQLite's batch runs a statement per write. */
    private static final String RECORD_EVENT = "INSERT INTO webhook_outbox "
            + "(receiver, plant_id, type, name, tag, recorded_at, leased_until, traceparent, tracestate) "
            + "SELECT ?1, ?2, ?3, ?4, ?5, ?6, " + LEASE_UNLESS_BEHIND.formatted("?1", "?2", "?7") + ", ?8, ?9 "
            + "WHERE " + UNLESS_OFF.formatted("?1") + " RETURNING " + EVENT_COLUMNS;

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

    @Override
    String hasTable(String table) {
        return "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'";
    }

    @Override
    String hasColumn(String table, String column) {
        return "SELECT count(*) > 0 FROM pragma_table_info('" + table + "') WHERE name = '" + column + "'";
    }

    /** Version 1 declared the id BIGINT; version 2 made it the row id, which only INTEGER does. */
    @Override
    int builtVersionWithoutTraces(Statement statement) throws SQLException {
        try (ResultSet key = statement.executeQuery(
                "SELECT count(*) > 0 FROM pragma_table_info('plants') WHERE name = 'id' AND type = 'INTEGER'")) {
            return key.next() && key.getBoolean(1) ? 2 : 0;
        }
    }

    /**
     * Begun by hand, IMMEDIATE whatever the data source's own setting, so that it holds the file's write lock before
     * it reads the version.
     */
    @Override
    void beginMigration(Connection connection, Statement statement) throws SQLException {
        connection.setAutoCommit(true);
        statement.execute("BEGIN IMMEDIATE");
    }

    @Override
    void commitMigration(Connection connection, Statement statement) throws SQLException {
        statement.execute("COMMIT");
    }

    @Override
    void rollbackMigration(Connection connection, Statement statement) throws SQLException {
        statement.execute("ROLLBACK");
    }

    /** One writer at a time: the outbox's updates wait for the writer's batches rather than for its lock. */
    @Override
    boolean outboxWritesOnTheWriter() {
        return true;
    }

    /**
     * Copies the plants, in id order, into a table whose {@code INTEGER PRIMARY KEY} is the row id (it holds every
     * 64-bit id, negative ones too), then puts it in the old one's place. The copy goes in chunks so that a large
     * table's progress is logged every {@link #PROGRESS_EVERY}.
     */
    @Override
    void rekeyPlantsForVersion2(Statement statement) throws SQLException {
        statement.execute("CREATE TABLE plants_by_row_id (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT)");
        long total;
        try (ResultSet count = statement.executeQuery("SELECT count(*) FROM plants")) {
            count.next();
            total = count.getLong(1);
        }
        Connection connection = statement.getConnection();
        String copy = "INSERT INTO plants_by_row_id (id, name, tag) SELECT id, name, tag FROM plants";
        long copied = 0;
        long lastReport = System.nanoTime();
        try (PreparedStatement first = connection.prepareStatement(copy + " ORDER BY id LIMIT " + COPY_CHUNK);
             PreparedStatement next = connection.prepareStatement(copy + " WHERE id > ? ORDER BY id LIMIT "
                     + COPY_CHUNK);
             PreparedStatement last = connection.prepareStatement("SELECT max(id) FROM plants_by_row_id")) {
            int chunk = first.executeUpdate();
            while (chunk > 0) {
                copied += chunk;
                if (System.nanoTime() - lastReport >= PROGRESS_EVERY.toNanos()) {
                    LOG.log(System.Logger.Level.INFO, "migrating the plant store's schema: " + copied + " of "
                            + total + " plants copied");
                    lastReport = System.nanoTime();
                }
                try (ResultSet row = last.executeQuery()) {
                    row.next();
                    next.setLong(1, row.getLong(1));
                }
                chunk = next.executeUpdate();
            }
        }
        if (copied != total) {
            throw new SQLException("copied " + copied + " plants of " + total);
        }
        statement.execute("DROP TABLE plants");
        statement.execute("ALTER TABLE plants_by_row_id RENAME TO plants");
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
    Map<Long, Plant> commit(Connection connection, long[] sortedIds, List<PlantOp> ops, Batch events)
            throws SQLException {
        connection.setAutoCommit(false);
        try {
            Map<Long, Plant> stored = lockAndRead(connection, sortedIds);
            try (PreparedStatement insert = prepare(connection, INSERT_IF_ABSENT);
                 PreparedStatement delete = prepare(connection, DELETE);
                 PreparedStatement recordEvent = events.records() ? prepare(connection, RECORD_EVENT) : null) {
                for (PlantOp op : ops) {
                    if (op instanceof PlantOp.InsertIfAbsent added) {
                        insert.setLong(1, added.id());
                        insert.setString(2, added.plant().name());
                        insert.setString(3, added.plant().tag());
                        if (insert.executeUpdate() > 0 && recordEvent != null) {
                            record(recordEvent, events, PlantEvent.CREATED, op, added.plant());
                        }
                    } else {
                        delete.setLong(1, op.id());
                        if (delete.executeUpdate() > 0 && recordEvent != null) {
                            record(recordEvent, events, PlantEvent.DELETED, op, null);
                        }
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

    /** One event per receiver of a write that took effect. */
    private static void record(PreparedStatement insert, Batch events, String type, PlantOp write, Plant plant)
            throws SQLException {
        List<String> receivers = events.receivers();
        List<Long> leasedUntil = events.leasedUntilMillis();
        for (int i = 0; i < receivers.size(); i++) {
            insert.setString(1, receivers.get(i));
            insert.setLong(2, write.id());
            insert.setString(3, type);
            insert.setString(4, plant == null ? null : plant.name());
            insert.setString(5, plant == null ? null : plant.tag());
            insert.setLong(6, events.recordedAtMillis());
            insert.setLong(7, leasedUntil.get(i));
            insert.setString(8, write.trace().map(TraceContext::traceparent).orElse(null));
            insert.setString(9, write.trace().flatMap(TraceContext::tracestate).orElse(null));
            try (ResultSet rows = insert.executeQuery()) {
                readEvents(rows, events.written());
            }
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
