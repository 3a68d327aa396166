package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** Real databases for the JDBC store's tests: a SQLite file, or a fresh schema in the PostgreSQL under test. */
final class Databases {

    static final String POSTGRES_URL_VARIABLE = "PLANTSTORE_TEST_POSTGRES_URL";

    private Databases() {
    }

    /** SQLite as the server runs it: write-ahead log, a full sync on every commit, waiting out a busy lock. */
    static DataSource sqlite(Path file) {
        var config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.setBusyTimeout(5_000);
        var dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file);
        return dataSource;
    }

    /**
     * The PostgreSQL URL from {@value #POSTGRES_URL_VARIABLE}. Without it the calling test is skipped, and says why;
     * under CI, where {@code .ci/run} sets it, an unreachable database fails the test instead.
     */
    static String postgresUrl() {
        String url = System.getenv(POSTGRES_URL_VARIABLE);
        if (url == null || url.isBlank()) {
            System.err.println("PostgreSQL tests skipped: " + POSTGRES_URL_VARIABLE + " is not set");
        }
        Assumptions.assumeTrue(url != null && !url.isBlank(), POSTGRES_URL_VARIABLE + " is not set");
        return url;
    }

    /** A schema of its own in the PostgreSQL under test, so that runs and test classes never see each other's rows. */
    static String newPostgresSchema() {
        String schema = "plantstore_test_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection connection = DriverManager.getConnection(postgresUrl());
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            fail("the PostgreSQL at " + POSTGRES_URL_VARIABLE + " cannot be reached: " + e.getMessage(), e);
        }
        return schema;
    }

    static void dropPostgresSchema(String schema) {
        try (Connection connection = DriverManager.getConnection(postgresUrl());
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            fail("could not drop test schema " + schema + ": " + e.getMessage(), e);
        }
    }

    /** A data source on {@code url} whose unqualified tables live in {@code schema}. */
    static PGSimpleDataSource postgres(String url, String schema) {
        var dataSource = new PGSimpleDataSource();
        dataSource.setUrl(url);
        dataSource.setCurrentSchema(schema);
        dataSource.setConnectTimeout(2);
        dataSource.setLoginTimeout(2);
        dataSource.setSocketTimeout(5);
        return dataSource;
    }
}
