package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Databases;
import dev.plantstore.core.JdbcSchema;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL schema written by the last release of schema version 1, migrated to this release's; migrations that
 * meet on one schema, and the lock that keeps them apart.
 */
class PostgresSchemaMigrationTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private TestPostgres postgres;
    private DataSource dataSource;

    @BeforeEach
    void version1Schema() throws Exception {
        postgres = TestPostgres.freshSchema();
        Version1Databases.loadPostgres(postgres);
        dataSource = Databases.postgres(postgres);
    }

    @AfterEach
    void dropSchema() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void aVersionTableWhoseRowsWereDeletedIsRefusedAndNoStepRunsTwice() throws Exception {
        Version1Databases.assertADeletedVersionTableIsRefusedAndNoStepRunsAgain(dataSource);
    }

    @Test
    void aVersion1SchemaKeepsEveryPlantAndPendingEventAndLosesTheReceiversCredentials() throws Exception {
        var plants = Version1Databases.plants(dataSource);
        var events = Version1Databases.events(dataSource);
        assertEquals(8, plants.size());
        assertEquals(10, events.size());
        assertEquals(Version1Databases.RECEIVER, events.get(0).receiver());

        assertEquals(new JdbcSchema.Migration(1, Schema.VERSION), JdbcSchema.migrate(dataSource));

        assertEquals(plants, Version1Databases.plants(dataSource));
        assertEquals(events.stream().map(e -> e.withReceiver(Version1Databases.REDACTED_RECEIVER)).toList(),
                Version1Databases.events(dataSource));
        assertEquals(Version1Databases.everyVersion(), Version1Databases.recordedVersions(dataSource));
        Version1Databases.assertNoCredentialsInAnyTable(dataSource, Dialect.POSTGRESQL);
        try (var store = PlantStores.jdbc(dataSource)) {
            for (var plant : plants) {
                assertEquals(Optional.of(new Plant(plant.name(), plant.tag())), store.find(plant.id()));
            }
            store.create(new NewPlant(-5, "Newest"));
            assertEquals(Optional.of(new Plant("Newest", null)), store.find(-5));
        }
    }

    @Test
    void aStoreThatMayNotMigrateRefusesAVersion1Schema() throws Exception {
        var e = assertThrows(StoreUnavailableException.class,
                () -> PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withMigratesSchema(false)));
        assertTrue(e.getMessage().contains("schema version 1, older than this release's " + Schema.VERSION),
                e.getMessage());
        assertEquals(List.of(1), Version1Databases.recordedVersions(dataSource));
    }

    /**
     * Both read version 1 while the test holds the lock, so both go on to migrate; the lock lets one in at a time, and
     * the second finds the step done.
     */
    @Test
    void twoMigrationsStartedTogetherRunTheStepOnce() throws Exception {
        // A thread each: the common pool of a two-core machine may run the two one after the other.
        ExecutorService migrators = Executors.newFixedThreadPool(2);
        try (Connection holder = DriverManager.getConnection(postgres.schemaUrl())) {
            holder.setAutoCommit(false);
            try (Statement statement = holder.createStatement()) {
                statement.execute(PostgresSql.LOCK);
            }
            var first = CompletableFuture.supplyAsync(() -> JdbcSchema.migrate(dataSource), migrators);
            var second = CompletableFuture.supplyAsync(() -> JdbcSchema.migrate(dataSource), migrators);
            awaitWaitingForTheLock(2);
            assertEquals(List.of(1), Version1Databases.recordedVersions(dataSource));
            holder.commit();
            assertEquals(new JdbcSchema.Migration(1, Schema.VERSION), first.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(new JdbcSchema.Migration(1, Schema.VERSION), second.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        } finally {
            migrators.shutdownNow();
        }
        assertEquals(Version1Databases.everyVersion(), Version1Databases.recordedVersions(dataSource));
        Version1Databases.assertNoCredentialsInAnyTable(dataSource, Dialect.POSTGRESQL);
    }

    @Test
    void theLockOfAHolderThatDiesIsFreed() throws Exception {
        try (Connection holder = DriverManager.getConnection(postgres.schemaUrl())) {
            holder.setAutoCommit(false);
            int holderPid;
            try (Statement statement = holder.createStatement()) {
                statement.execute(PostgresSql.LOCK);
                try (ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
                    pid.next();
                    holderPid = pid.getInt(1);
                }
            }
            var migration = CompletableFuture.supplyAsync(() -> JdbcSchema.migrate(dataSource));
            awaitWaitingForTheLock(1);
            assertFalse(migration.isDone());
            try (Connection admin = DriverManager.getConnection(postgres.databaseUrl());
                 PreparedStatement kill = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
                kill.setInt(1, holderPid);
                kill.execute();
            }
            assertEquals(new JdbcSchema.Migration(1, Schema.VERSION),
                    migration.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }
        assertEquals(Version1Databases.everyVersion(), Version1Databases.recordedVersions(dataSource));
    }

    /** Until {@code waiting} sessions wait for this schema's migration lock. */
    private void awaitWaitingForTheLock(int waiting) throws Exception {
        String sql = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = "
                + PostgresSql.LOCK_CLASS + " AND objid = hashtext(?)::oid AND objsubid = 2";
        try (Connection connection = DriverManager.getConnection(postgres.databaseUrl());
             PreparedStatement count = connection.prepareStatement(sql)) {
            count.setString(1, postgres.schema());
            Optional<Integer> seen = Poll.until(WAIT, Duration.ofMillis(20), () -> {
                try (ResultSet row = count.executeQuery()) {
                    row.next();
                    return row.getInt(1) == waiting ? Optional.of(waiting) : Optional.empty();
                }
            });
            assertTrue(seen.isPresent(), "no " + waiting + " sessions waited for the migration lock");
        }
    }
}
