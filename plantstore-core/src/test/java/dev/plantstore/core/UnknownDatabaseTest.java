package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The JDBC store knows its SQL for SQLite and PostgreSQL only: on any other database it refuses to open. */
class UnknownDatabaseTest {

    private final JdbcDataSource h2 = new JdbcDataSource();
    private final Connection keepsTheDatabase;

    UnknownDatabaseTest() throws SQLException {
        h2.setURL("jdbc:h2:mem:unknown-database");
        keepsTheDatabase = h2.getConnection();
    }

    @AfterEach
    void dropTheDatabase() throws SQLException {
        keepsTheDatabase.close();
    }

    @Test
    void aDatabaseOtherThanSqliteOrPostgresqlIsRefusedBeforeAnythingIsWritten() throws SQLException {
        var refused = assertThrows(IllegalArgumentException.class, () -> PlantStores.jdbc(h2));
        assertEquals("the JDBC store supports PostgreSQL and SQLite, not H2", refused.getMessage());
        try (ResultSet tables = keepsTheDatabase.getMetaData().getTables(null, "PUBLIC", "%", null)) {
            assertFalse(tables.next(), () -> "a table was created on the refused database: " + tableName(tables));
        }
    }

    private static String tableName(ResultSet tables) {
        try {
            return tables.getString("TABLE_NAME");
        } catch (SQLException e) {
            return e.getMessage();
        }
    }
}
