package dev.plantstore.core.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import javax.sql.DataSource;

/**
 * A connection pool that goes through a switchover: afterwards it still holds connections to the old primary, which
 * now only reads (here real PostgreSQL sessions made read-only, which refuse writes with SQL state 25006 as a standby
 * does), and opens new ones to the primary. Like a pool, it takes back a connection that is closed and hands it out
 * again; one that is aborted is dropped.
 */
final class PoolAfterASwitchover implements AutoCloseable {

    private final DataSource primary;
    private final BlockingDeque<Connection> idle = new LinkedBlockingDeque<>();
    private final List<Connection> toTheOldPrimary = new ArrayList<>();

    PoolAfterASwitchover(DataSource primary) {
        this.primary = primary;
    }

    /** The switchover: the pool now holds {@code connections} to the old primary, handed out before any other. */
    void switchOver(int connections) throws SQLException {
        for (int i = 0; i < connections; i++) {
            Connection readOnly = primary.getConnection();
            try (Statement statement = readOnly.createStatement()) {
                statement.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            }
            toTheOldPrimary.add(readOnly);
            idle.addFirst(readOnly);
        }
    }

    /** How many of the connections to the old primary are still open, in the pool or handed out. */
    long openToTheOldPrimary() throws SQLException {
        long open = 0;
        for (Connection connection : toTheOldPrimary) {
            if (!connection.isClosed()) {
                open++;
            }
        }
        return open;
    }

    DataSource dataSource() {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        return invoke(primary, method, args);
                    }
                    Connection pooled = idle.pollFirst();
                    return pooled(pooled != null ? pooled : primary.getConnection());
                });
    }

    private Connection pooled(Connection real) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> {
                        if (!real.isClosed()) {
                            idle.addLast(real);
                        }
                        yield null;
                    }
                    default -> invoke(real, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() throws SQLException {
        Connection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.close();
        }
    }
}
