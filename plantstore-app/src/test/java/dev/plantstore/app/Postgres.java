package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.fail;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL under test, named by {@value #URL_VARIABLE}. Without it the calling test is skipped and says why;
 * {@code .ci/run} sets it, so under CI an unreachable database fails instead. Each test gets a schema of its own.
 */
final class Postgres implements AutoCloseable {

    static final String URL_VARIABLE = "PLANTSTORE_TEST_POSTGRES_URL";

    private final String url;
    private final String schema;

    private Postgres(String url, String schema) {
        this.url = url;
        this.schema = schema;
    }

    static Postgres freshSchema() {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            System.err.println("PostgreSQL tests skipped: " + URL_VARIABLE + " is not set");
        }
        Assumptions.assumeTrue(url != null && !url.isBlank(), URL_VARIABLE + " is not set");
        String schema = "plantstore_test_" + UUID.randomUUID().toString().replace("-", "");
        execute(url, "CREATE SCHEMA " + schema);
        return new Postgres(url, schema);
    }

    /** The URL the server is given: the database under test, with this test's schema as its search path. */
    String storeUrl() {
        return withSchema(url);
    }

    /** The same database reached through {@code proxy}. */
    String storeUrlThrough(TcpProxy proxy) {
        URI uri = URI.create(url.substring("jdbc:".length()));
        return withSchema(url.replace(uri.getHost() + ":" + uri.getPort(), "127.0.0.1:" + proxy.port()));
    }

    String host() {
        return URI.create(url.substring("jdbc:".length())).getHost();
    }

    int port() {
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
            fail("the PostgreSQL at " + URL_VARIABLE + " cannot be reached: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        execute(url, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
}
