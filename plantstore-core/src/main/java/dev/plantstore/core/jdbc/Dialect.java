package dev.plantstore.core.jdbc;

import dev.plantstore.core.StoreUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The databases whose SQL the JDBC store speaks, recognised once when it opens. Any other is refused then: the SQL of
 * either would run there without taking the locks or keeping the order the store's promises rest on.
 */
public enum Dialect {
    POSTGRESQL, SQLITE;

    /**
     * The dialect of the database behind {@code dataSource}.
     *
     * @throws IllegalArgumentException when it is neither PostgreSQL nor SQLite
     * @throws StoreUnavailableException when it cannot be reached
     */
    public static Dialect of(DataSource dataSource) {
        String product;
        try (Connection connection = dataSource.getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new StoreUnavailableException("the plant store could not be opened", e);
        }
        return switch (product) {
            case "PostgreSQL" -> POSTGRESQL;
            case "SQLite" -> SQLITE;
            default -> throw new IllegalArgumentException("the JDBC store supports PostgreSQL and SQLite, not "
                    + product);
        };
    }

    /**
     * The store's statements in this dialect; those of a batch end after {@code queryTimeoutSeconds}, 0 for no time-out
     * (the schema's steps and an operator's commands set none).
     */
    StoreSql sql(int queryTimeoutSeconds) {
        return switch (this) {
            case POSTGRESQL -> new PostgresSql(queryTimeoutSeconds);
            case SQLITE -> new SqliteSql(queryTimeoutSeconds);
        };
    }
}
