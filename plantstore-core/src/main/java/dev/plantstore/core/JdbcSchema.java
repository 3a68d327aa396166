package dev.plantstore.core;

import dev.plantstore.core.jdbc.Dialect;
import dev.plantstore.core.jdbc.Schema;
import javax.sql.DataSource;

/**
 * The tables a JDBC store keeps, and their version in {@code plantstore_schema}. A store migrates them when it opens
 * unless told not to ({@link JdbcStoreSettings#withMigratesSchema(boolean)}); this lets an operator migrate apart, as
 * the schema's owner. Each step runs in a transaction that records it, so an interrupted migration leaves a version
 * and the next goes on from there; stores and migrations started together on one PostgreSQL run each step once.
 *
 * <pre>{@code
 * JdbcSchema.Migration done = JdbcSchema.migrate(ownersDataSource);
 * System.out.println("schema version " + done.from() + " -> " + done.to());
 * }</pre>
 */
public final class JdbcSchema {

    /**
     * A migration's outcome.
     *
     * @param from the database's version before, 0 when it had no tables
     * @param to   its version now, this release's
     */
    public record Migration(int from, int to) {
    }

    private JdbcSchema() {
    }

    /** The schema version this release reads and writes. */
    public static int currentVersion() {
        return Schema.currentVersion();
    }

    /**
     * The version of the database behind {@code dataSource}, 0 when it has no store tables. Reads only.
     *
     * @throws StoreUnavailableException when the database cannot be reached
     * @throws IllegalArgumentException when it is neither SQLite nor PostgreSQL
     */
    public static int version(DataSource dataSource) {
        return Schema.version(dataSource, Dialect.of(dataSource));
    }

    /**
     * Creates the store's tables, or migrates them to {@link #currentVersion()}; a database already there is only read.
     *
     * @throws StoreUnavailableException when the database cannot be reached, is newer than this release, or a step
     *                                   fails (its transaction rolled back)
     * @throws IllegalArgumentException when it is neither SQLite nor PostgreSQL
     */
    public static Migration migrate(DataSource dataSource) {
        return new Migration(Schema.migrate(dataSource, Dialect.of(dataSource)), Schema.currentVersion());
    }

    /**
     * Refuses, changing nothing, a database not at {@link #currentVersion()}.
     *
     * @throws StoreUnavailableException naming the database's version, when it is older or newer, or unreachable
     */
    public static void require(DataSource dataSource) {
        Schema.require(dataSource, Dialect.of(dataSource));
    }
}
