package dev.plantstore.core;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.testkit.TestPostgres;
import org.postgresql.ds.PGSimpleDataSource;

/** The PostgreSQL data sources the JDBC store's tests give it; SQLite's is the server's own, {@code DurableSqlite}. */
public final class Databases {

    private Databases() {
    }

    /**
     * A data source on the database under test whose unqualified tables live in {@code postgres}'s schema, a new
     * connection for every one asked for: what a test that breaks connections, or counts them, wraps.
     */
    public static PGSimpleDataSource postgres(TestPostgres postgres) {
        var dataSource = new PGSimpleDataSource();
        dataSource.setUrl(postgres.databaseUrl());
        dataSource.setCurrentSchema(postgres.schema());
        dataSource.setConnectTimeout(2);
        dataSource.setLoginTimeout(2);
        dataSource.setSocketTimeout(5);
        return dataSource;
    }

    /** The same connections through a pool, as the server keeps them; the caller closes it. */
    public static HikariDataSource pooled(TestPostgres postgres) {
        var config = new HikariConfig();
        config.setDataSource(postgres(postgres));
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(2_000);
        return new HikariDataSource(config);
    }
}
