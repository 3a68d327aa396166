package dev.plantstore.core.jdbc;

import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.webhooks.DeliverySettings;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The store's tables, brought to this release's version by numbered steps, each recorded in {@code plantstore_schema}
 * in the transaction that runs it, so an interrupted step leaves the version before it and the next run does it
 * again; a newer database is refused. On PostgreSQL a transaction-scoped advisory lock lets instances starting
 * together run each step once; on SQLite the transaction begins {@code IMMEDIATE}. A new database is built by the same
 * steps from version 0. Our own rather than Flyway: the core is JDK-only, and Flyway would add megabytes and a history
 * table of its own beside the one the releases out there read.
 */
public final class Schema {

    /** PostgreSQL's SQLSTATE for a privilege the role lacks. */
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    private static final System.Logger LOG = System.getLogger(Schema.class.getName());

    /** One step: brings a database from the version of its index in {@link #STEPS} to the next. */
    @FunctionalInterface
    private interface Step {
        void run(Statement statement, StoreSql sql) throws SQLException;
    }

    private static final List<Step> STEPS = List.of(Schema::createVersion1, Schema::toVersion2,
            (statement, sql) -> toVersion3(statement), (statement, sql) -> toVersion4(statement));

    /** This release's version. */
    static final int VERSION = STEPS.size();

    private Schema() {
    }

    /** Brings the database to this release's version if it is older; see {@link #migrate}. */
    public static void ensure(DataSource dataSource, Dialect dialect) {
        migrate(dataSource, dialect);
    }

    /** This release's schema version. */
    public static int currentVersion() {
        return VERSION;
    }

    /**
     * Runs the steps from the database's version to this release's, each in a transaction of its own; returns the
     * version the database had. A database at this release's version is only read: no DDL, no lock.
     *
     * @throws StoreUnavailableException when the database is newer than this release, or a step fails (its
     *                                   transaction then rolled back, and the database holds the version before it)
     */
    public static int migrate(DataSource dataSource, Dialect dialect) {
        int found = version(dataSource, dialect);
        refuseNewer(found);
        int version = found;
        // Building a new store's tables is no news; an operator hears of a migration of the one they had.
        System.Logger.Level told = found == 0 ? System.Logger.Level.DEBUG : System.Logger.Level.INFO;
        while (version < VERSION) {
            version = runNextStep(dataSource, dialect, told);
        }
        return found;
    }

    /**
     * Refuses a database other than at this release's version, changing nothing: for a store whose database user may
     * only read and write rows, and whose schema someone else migrates.
     */
    public static void require(DataSource dataSource, Dialect dialect) {
        int version = version(dataSource, dialect);
        refuseNewer(version);
        if (version < VERSION) {
            throw new StoreUnavailableException("the database holds schema version " + version + ", older than this "
                    + "release's " + VERSION + ", and this store may not change it; migrate it first");
        }
    }

    /** The database's schema version, 0 for one without the store's tables. Reads only. */
    public static int version(DataSource dataSource, Dialect dialect) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            return version(statement, dialect.sql(0));
        } catch (SQLException e) {
            if (INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                throw new StoreUnavailableException("the database user may not read the store's tables ("
                        + e.getMessage().lines().findFirst().orElse("").strip() + "): grant it what the server needs,"
                        + " as docs/reference.md#database-privileges lists");
            }
            throw new StoreUnavailableException("the plant store could not be opened", e);
        }
    }

    private static void refuseNewer(int version) {
        if (version > VERSION) {
            throw new StoreUnavailableException("the database holds schema version " + version
                    + ", newer than this release's " + VERSION + "; run a newer plantstore");
        }
    }

    private static int version(Statement statement, StoreSql sql) throws SQLException {
        try (ResultSet row = statement.executeQuery(sql.hasTable("plantstore_schema"))) {
            if (!row.next() || !row.getBoolean(1)) {
                return 0;
            }
        }
        int recorded;
        try (ResultSet row = statement.executeQuery("SELECT coalesce(max(version), 0) FROM plantstore_schema")) {
            recorded = row.next() ? row.getInt(1) : 0;
        }
        int built = builtVersion(statement, sql);
        if (built > recorded) {
            throw new StoreUnavailableException("the table plantstore_schema records schema version " + recorded
                    + ", but the tables are at version " + built + ": its rows were changed by hand, so no step runs;"
                    + " as the schema's owner, record the version (INSERT INTO plantstore_schema (version) VALUES ("
                    + built + ")) and start again");
        }
        return recorded;
    }

    /**
     * The lowest version the tables themselves show, whatever {@code plantstore_schema} records: a step whose change
     * is already there must not run again (adding a column twice fails; copying the plants again would be wasted).
     * Version 1's tables are created only if absent, so a database without them recorded is no contradiction.
     */
    private static int builtVersion(Statement statement, StoreSql sql) throws SQLException {
        try (ResultSet row = statement.executeQuery(sql.hasTable(StoreSql.RECEIVERS_OFF))) {
            if (row.next() && row.getBoolean(1)) {
                return 4;
            }
        }
        try (ResultSet row = statement.executeQuery(sql.hasColumn("webhook_outbox", "traceparent"))) {
            if (row.next() && row.getBoolean(1)) {
                return 3;
            }
        }
        return sql.builtVersionWithoutTraces(statement);
    }

    /**
     * Takes the lock, reads the version again (another instance may have run the step meanwhile), runs the step that
     * follows it and records it, in one transaction. Returns the version the database is at afterwards.
     */
    private static int runNextStep(DataSource dataSource, Dialect dialect, System.Logger.Level told) {
        StoreSql sql = dialect.sql(0);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            sql.beginMigration(connection, statement);
            try {
                int version = version(statement, sql);
                refuseNewer(version);
                if (version < VERSION) {
                    long started = System.nanoTime();
                    LOG.log(told, "migrating the plant store's schema from version " + version
                            + " to " + (version + 1));
                    STEPS.get(version).run(statement, sql);
                    statement.executeUpdate("INSERT INTO plantstore_schema (version) VALUES (" + (version + 1) + ")");
                    sql.commitMigration(connection, statement);
                    LOG.log(told, "the plant store's schema is at version " + (version + 1)
                            + " (the step took " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms)");
                    return version + 1;
                }
                sql.commitMigration(connection, statement);
                return version;
            } catch (SQLException | RuntimeException e) {
                try {
                    sql.rollbackMigration(connection, statement);
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the plant store's schema could not be migrated", e);
        }
    }

    /**
     * The tables as the releases of version 1 created them. A database that has a plants table of an earlier release
     * keeps it.
     */
    private static void createVersion1(Statement statement, StoreSql sql) throws SQLException {
        statement.execute("CREATE TABLE IF NOT EXISTS plantstore_schema (version INTEGER NOT NULL)");
        statement.execute("CREATE TABLE IF NOT EXISTS plants (id BIGINT PRIMARY KEY, name TEXT NOT NULL, tag TEXT)");
        sql.ensureTable(statement);
    }

    /**
     * The outbox keys its events by a receiver's redacted URL, so that no row holds a receiver's credentials; on
     * SQLite the plants are keyed by the row id, one B-tree instead of a table and an index beside it. The outbox is
     * first made as version 1's last release left it, for a database an earlier release of version 1 wrote.
     */
    private static void toVersion2(Statement statement, StoreSql sql) throws SQLException {
        sql.ensureTable(statement);
        redactReceivers(statement);
        sql.rekeyPlantsForVersion2(statement);
    }

    /**
     * Each event keeps the trace context of its write. Nullable columns added without a default change no row, so the
     * step takes no time at any size, and a release of version 2 still running beside this one during a rolling
     * upgrade goes on recording events, without a trace.
     */
    private static void toVersion3(Statement statement) throws SQLException {
        statement.execute("ALTER TABLE webhook_outbox ADD COLUMN traceparent TEXT");
        statement.execute("ALTER TABLE webhook_outbox ADD COLUMN tracestate TEXT");
    }

    /**
     * The receivers turned off after a {@code 410 Gone}, kept for every instance and across restarts. A release of
     * version 3 running beside this one during a rolling upgrade still records events for them, which wait pending.
     */
    private static void toVersion4(Statement statement) throws SQLException {
        statement.execute(StoreSql.CREATE_RECEIVERS_OFF);
    }

    private static void redactReceivers(Statement statement) throws SQLException {
        List<String> receivers = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery("SELECT DISTINCT receiver FROM webhook_outbox")) {
            while (rows.next()) {
                receivers.add(rows.getString(1));
            }
        }
        try (PreparedStatement update = statement.getConnection().prepareStatement(
                "UPDATE webhook_outbox SET receiver = ? WHERE receiver = ?")) {
            for (String receiver : receivers) {
                String key = DeliverySettings.receiverKey(URI.create(receiver));
                if (!key.equals(receiver)) {
                    update.setString(1, key);
                    update.setString(2, receiver);
                    update.executeUpdate();
                }
            }
        }
    }
}
