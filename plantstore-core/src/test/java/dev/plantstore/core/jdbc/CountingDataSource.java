package dev.plantstore.core.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Counts the round trips to a server through the connections of a real data source: every statement executed, every
 * commit and every rollback.
 */
final class CountingDataSource {

    private final AtomicInteger roundTrips = new AtomicInteger();

    int roundTrips() {
        return roundTrips.get();
    }

    /** {@code real}, with every {@code execute*} of its statements, every commit and every rollback counted. */
    DataSource wrap(DataSource real) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                forward(real, (method, result) ->
                        result instanceof Connection connection ? counting(connection) : result));
    }

    private Connection counting(Connection real) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                forward(real, (method, result) -> {
                    if (method.getName().equals("commit") || method.getName().equals("rollback")) {
                        roundTrips.incrementAndGet();
                    }
                    return result instanceof PreparedStatement statement ? countingStatement(statement) : result;
                }));
    }

    private PreparedStatement countingStatement(PreparedStatement real) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, forward(real, (method, result) -> {
                    if (method.getName().startsWith("execute")) {
                        roundTrips.incrementAndGet();
                    }
                    return result;
                }));
    }

    private interface Wrapper {
        Object wrap(java.lang.reflect.Method method, Object result) throws SQLException;
    }

    private static InvocationHandler forward(Object real, Wrapper wrapper) {
        return (proxy, method, args) -> {
            try {
                return wrapper.wrap(method, method.invoke(real, args));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
    }
}
