package dev.plantstore.core;

import dev.plantstore.testkit.TestPostgres;
import org.postgresql.ds.PGSimpleDataSource;

/** The PostgreSQL data source the JDBC store's tests give it; SQLite's is the server's own, {@code DurableSqlite}. */
public final class Databases {

    private Databases() {
    }

    /** A data source on the database under test whose unqualified tables live in {@code postgres}'s schema. */
    public static PGSimpleDataSource postgres(TestPostgres postgres) {
        var dataSource = new PGSimpleDataSource();
        dataSource.setUrl(postgres.databaseUrl());
        dataSource.setCurrentSchema(postgres.schema());
        dataSource.setConnectTimeout(2);
        dataSource.setLoginTimeout(2);
        dataSource.setSocketTimeout(5);
        return dataSource;
    }
}
