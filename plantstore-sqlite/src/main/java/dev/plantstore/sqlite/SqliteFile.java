package dev.plantstore.sqlite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A SQLite file opened as the server opens its own: every acknowledged write on disk ({@link DurableSqlite}'s
 * settings) and a small pool of open connections. One process at a time: the store's group commit assumes it is the
 * only writer. Thread-safe; close it after the store.
 *
 * <pre>{@code
 * try (SqliteFile file = SqliteFile.open(Path.of("plants.db"));
 *      PlantStore store = PlantStores.jdbc(file)) {
 *     store.create(new NewPlant(1, "Monstera", "aroid"));
 * }
 * }</pre>
 */
public final class SqliteFile implements DataSource, AutoCloseable {

    /** How long an operation waits for a connection of the pool before it fails. */
    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);

    /**
     * Connections kept: the store's writer and a reader, and one for the webhook delivery's reads (its backlog
     * counts) beside them; the delivery's writes to the outbox run on the writer's.
     */
    private static final int CONNECTIONS = 3;

    private final HikariDataSource pool;

    private SqliteFile(HikariDataSource pool) {
        this.pool = pool;
    }

    /** Opens {@code file}, creating it when missing (its directory must exist). */
    public static SqliteFile open(Path file) {
        var config = new HikariConfig();
        config.setPoolName("plantstore-sqlite");
        config.setDataSource(DurableSqlite.dataSource(file));
        config.setMaximumPoolSize(CONNECTIONS);
        // A pooled connection is never replaced (the pool's default is every 30 minutes): SQLite has no server that
        // ends connections, and a connection kept open keeps working when the directory is made unwritable under the
        // running process, where a new one could not be opened. Such a fault shows at the next start, clearly.
        config.setMaxLifetime(0);
        config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        return new SqliteFile(new HikariDataSource(config));
    }

    /** Closes the pool's connections; close the store first. */
    @Override
    public void close() {
        pool.close();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return pool.getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() {
        return Logger.getLogger("dev.plantstore.sqlite");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
