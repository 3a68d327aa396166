package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.sqlite.DurableSqlite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar's {@code webhooks} command where there is nothing to do or it cannot be done: one line each, credentials
 * masked, no stack trace, and no store made where none was. {@link UndeliverableEventsIT} runs it beside a server.
 */
class WebhooksCommandIT {

    @TempDir
    Path dir;

    @Test
    void aStoreThatCannotBeOpenedIsReportedInOneLineWithItsCredentialsMaskedAsTheServerMasksThem() throws Exception {
        String store = "jdbc:postgresql://alice:S3cretPw@127.0.0.1:5432/x";
        RunningJar.Completed server = RunningJar.runToCompletion(dir, "--host", "127.0.0.1", "--port", "0",
                "--store", store);
        assertEquals(1, server.exitCode(), server.stderr());
        assertTrue(server.stderr().startsWith("plantstore: cannot open store jdbc:postgresql://127.0.0.1:5432/x: "),
                server.stderr());
        for (String command : List.of("undeliverable", "redeliver")) {
            RunningJar.Completed refused = RunningJar.runToCompletion(dir, "webhooks", command, "--store", store);
            assertEquals(new RunningJar.Completed(1, "", server.stderr()), refused);
            assertEquals(1, refused.stderr().lines().count(), refused.stderr());
            for (String leak : List.of("S3cretPw", "alice", "Exception", "\tat ")) {
                assertFalse(refused.stderr().contains(leak), () -> leak + " in " + refused.stderr());
            }
        }
    }

    @Test
    void aSqliteStoreThatDoesNotExistIsRefusedAndNothingIsCreated() throws Exception {
        Path workDir = Files.createDirectory(dir.resolve("empty"));
        for (String command : List.of("undeliverable", "redeliver")) {
            for (String store : List.of("sqlite:typo.db", "sqlite:typo/plants.db")) {
                RunningJar.Completed refused = RunningJar.runToCompletion(workDir, "webhooks", command,
                        "--store", store);
                assertEquals(new RunningJar.Completed(2, "", "plantstore: store " + store + " does not exist: "
                        + "name the store the server runs on\n"), refused);
            }
        }
        try (var left = Files.list(workDir)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void aDatabaseWithoutTheStoresTablesIsRefusedAndLeftWithout() throws Exception {
        Path database = dir.resolve("other.db");
        var other = DurableSqlite.dataSource(database);
        try (var connection = other.getConnection(); var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE notes (text TEXT)");
        }
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, "webhooks", "undeliverable",
                "--store", "sqlite:" + database);
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertTrue(refused.stderr().startsWith("plantstore: ") && refused.stderr().contains("schema version 0")
                && refused.stderr().lines().count() == 1, refused.stderr());
        try (var connection = other.getConnection(); var statement = connection.createStatement();
             var tables = statement.executeQuery("SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")) {
            assertTrue(tables.next());
            assertEquals("notes", tables.getString(1), "the command created nothing");
        }
    }

    @Test
    void withNoUndeliverableEventTheCommandSaysSo() throws Exception {
        Path database = dir.resolve("plants.db");
        JdbcSchema.migrate(DurableSqlite.dataSource(database));
        RunningJar.Completed none = RunningJar.runToCompletion(dir, "webhooks", "undeliverable",
                "--store", "sqlite:" + database);
        assertEquals(new RunningJar.Completed(0, "no undeliverable events\n", ""), none);
        RunningJar.Completed noneOfOne = RunningJar.runToCompletion(dir, "webhooks", "undeliverable",
                "--store", "sqlite:" + database, "--webhook-url", "https://search.example/plant-events");
        assertEquals(new RunningJar.Completed(0, "no undeliverable events to https://search.example/plant-events\n",
                ""), noneOfOne);
        RunningJar.Completed noneOfTheTopic = RunningJar.runToCompletion(dir, "webhooks", "undeliverable",
                "--store", "sqlite:" + database, "--kafka-bootstrap-servers", "kafka-1:9092,kafka-2:9092",
                "--kafka-topic", "plants");
        assertEquals(new RunningJar.Completed(0,
                "no undeliverable events to kafka://kafka-1:9092,kafka-2:9092/plants\n", ""), noneOfTheTopic);
    }
}
