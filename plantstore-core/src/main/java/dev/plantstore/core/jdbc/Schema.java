package dev.plantstore.core.jdbc;

import dev.plantstore.core.StoreUnavailableException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Creates the tables when missing and records the schema version in {@code plantstore_schema}, so that a later
 * release can tell which migrations to run, and an older release refuses a database a newer one has changed.
 */
public final class Schema {

    static final int VERSION = 1;

    private Schema() {
    }

    public static void ensure(DataSource dataSource, Dialect dialect) {
        try {
            ensureOnce(dataSource, dialect);
        } catch (SQLException first) {
            // Two instances starting together may race to create the tables; the loser finds them on its retry.
            try {
                ensureOnce(dataSource, dialect);
            } catch (SQLException second) {
                second.addSuppressed(first);
                throw new StoreUnavailableException("the plant store could not be opened", second);
            }
        }
    }

    private static void ensureOnce(DataSource dataSource, Dialect dialect) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            try {
                statement.execute("CREATE TABLE IF NOT EXISTS plantstore_schema (version INTEGER NOT NULL)");
                int version = currentVersion(statement);
                if (version == 0) {
                    statement.execute("CREATE TABLE IF NOT EXISTS plants "
                            + "(id BIGINT PRIMARY KEY, name TEXT NOT NULL, tag TEXT)");
                    statement.execute("INSERT INTO plantstore_schema (version) VALUES (" + VERSION + ")");
                } else if (version > VERSION) {
                    throw new StoreUnavailableException("the database holds schema version " + version
                            + ", newer than this release's " + VERSION + "; run a newer plantstore");
                }
                JdbcOutbox.ensureTable(statement, dialect);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private static int currentVersion(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery("SELECT MAX(version) FROM plantstore_schema")) {
            return row.next() ? row.getInt(1) : 0;
        }
    }
}
