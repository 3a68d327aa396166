package dev.plantstore.testkit;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;

/**
 * A schema of its own in the PostgreSQL under test, named by {@value #URL_VARIABLE}, so that runs and test classes
 * never see each other's rows; closing drops it. Without the variable the calling test is skipped, and the test JVM
 * says why once; {@code .ci/run} sets it, so under CI an unreachable database fails instead.
 */
public final class TestPostgres implements AutoCloseable {

    public static final String URL_VARIABLE = "PLANTSTORE_TEST_POSTGRES_URL";

    private static final AtomicBoolean SKIP_REPORTED = new AtomicBoolean();

    private final String url;
    private final String schema;

    private TestPostgres(String url, String schema) {
        this.url = url;
        this.schema = schema;
    }

    /** The database's URL; without {@value #URL_VARIABLE} the calling test is skipped. */
    public static String url() {
        String url = System.getenv(URL_VARIABLE);
        boolean set = url != null && !url.isBlank();
        if (!set && SKIP_REPORTED.compareAndSet(false, true)) {
            System.err.println("PostgreSQL tests skipped: " + URL_VARIABLE + " is not set");
        }
        Assumptions.assumeTrue(set, URL_VARIABLE + " is not set");
        return url;
    }

    public static TestPostgres freshSchema() {
        String url = url();
        String schema = "plantstore_test_" + UUID.randomUUID().toString().replace("-", "");
        execute(url, "CREATE SCHEMA " + schema);
        return new TestPostgres(url, schema);
    }

    /** The database under test, without a schema. */
    public String databaseUrl() {
        return url;
    }

    public String schema() {
        return schema;
    }

    /** The URL a store is given: the database under test, with this schema as its search path. */
    public String schemaUrl() {
        return withSchema(url);
    }

    /** {@link #schemaUrl()} reached through a proxy listening on {@code proxyPort} of the loopback address. */
    public String schemaUrlThrough(int proxyPort) {
        URI uri = URI.create(url.substring("jdbc:".length()));
        return withSchema(url.replace(uri.getHost() + ":" + uri.getPort(), "127.0.0.1:" + proxyPort));
    }

    public String host() {
        return URI.create(url.substring("jdbc:".length())).getHost();
    }

    public int port() {
        int port = URI.create(url.substring("jdbc:".length())).getPort();
        return port < 0 ? 5432 : port;
    }

    private String withSchema(String base) {
        return base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    private static void execute(String url, String sql) {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new AssertionError("the PostgreSQL at " + URL_VARIABLE + " failed " + sql + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        execute(url, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
}
