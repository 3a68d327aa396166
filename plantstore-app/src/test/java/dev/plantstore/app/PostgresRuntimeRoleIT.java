package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.JdbcSchema;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import dev.plantstore.testkit.WebhookReceiver;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server runs as a PostgreSQL role that may only read and write rows, once the schema's owner has run the migrate
 * command; the grants are those docs/reference.md gives.
 */
class PostgresRuntimeRoleIT {

    private static final String TOKEN = "runtime-role-token";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private TestPostgres postgres;
    private String role;

    @BeforeEach
    void schemaAndRole() throws Exception {
        postgres = TestPostgres.freshSchema();
        role = "plantstore_rw_" + UUID.randomUUID().toString().replace("-", "");
        asOwner("CREATE ROLE " + role + " LOGIN", "GRANT USAGE ON SCHEMA " + postgres.schema() + " TO " + role);
    }

    @AfterEach
    void dropSchemaAndRole() throws Exception {
        if (postgres != null) {
            postgres.close();
            asOwner("DROP OWNED BY " + role, "DROP ROLE " + role);
        }
    }

    @Test
    void aRoleWithoutDdlServesOnceTheOwnerHasMigratedAndIsToldWhatToRunBefore() throws Exception {
        String store = withoutUser(postgres.schemaUrl());
        Map<String, String> asRuntimeRole = Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_DB_USER", role);
        Map<String, String> asOwner = Map.of("PLANTSTORE_DB_USER", ownerOf(postgres.schemaUrl()));

        RunningJar.Completed refused = RunningJar.runToCompletion(dir, asRuntimeRole, "--port", "0", "--store", store,
                "--migrate", "off");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertEquals("plantstore: store " + store.split("\\?")[0] + " has no tables, and --migrate "
                + "is off: run java -jar plantstore.jar migrate with this --store as the schema's owner first\n",
                refused.stderr());
        RunningJar.Completed cannotCreate = RunningJar.runToCompletion(dir, asRuntimeRole, "--port", "0", "--store",
                store);
        assertEquals(1, cannotCreate.exitCode(), cannotCreate.stdout());
        assertTrue(cannotCreate.stderr().matches("plantstore: cannot open store [^\n]*: ERROR: permission denied for "
                + "schema " + postgres.schema() + "\n"), "one line: " + cannotCreate.stderr());

        RunningJar.Completed migrated = RunningJar.runToCompletion(dir, asOwner, "migrate", "--store", store);
        assertEquals(0, migrated.exitCode(), migrated.stderr());
        assertTrue(migrated.stdout().contains("migrated from schema version 0 to " + JdbcSchema.currentVersion()),
                migrated.stdout());

        RunningJar.Completed cannotRead = RunningJar.runToCompletion(dir, asRuntimeRole, "--port", "0", "--store",
                store, "--migrate", "off");
        assertEquals(1, cannotRead.exitCode(), cannotRead.stdout());
        assertTrue(cannotRead.stderr().matches("plantstore: cannot open store [^\n]*: the database user may not read "
                + "the store's tables \\(ERROR: permission denied for table plantstore_schema\\): grant it what the "
                + "server needs, as docs/reference.md#database-privileges lists\n"),
                "one line: " + cannotRead.stderr());

        grantReadingAndWritingRows();
        try (Connection connection = DriverManager.getConnection(withUser(postgres.schemaUrl(), role));
             Statement statement = connection.createStatement()) {
            var deleteRefused = assertThrows(SQLException.class,
                    () -> statement.executeUpdate("DELETE FROM plantstore_schema"));
            assertTrue(deleteRefused.getMessage().contains("permission denied for table plantstore_schema"),
                    deleteRefused.getMessage());
        }

        try (var receiver = new WebhookReceiver()) {
            var env = new HashMap<>(asRuntimeRole);
            env.putAll(Map.of("PLANTSTORE_WEBHOOK_SECRET", SECRET, "PLANTSTORE_WEBHOOK_URL",
                    receiver.url().toString()));
            for (String migrate : new String[] {"off", "on"}) {
                try (var jar = RunningJar.start(dir, env, "--store", store, "--migrate", migrate)) {
                    long id = migrate.equals("off") ? 1 : 2;
                    assertEquals(200, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                            PlantRequests.plantJson(id, "Fern")).build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode());
                    assertEquals(204, HTTP.send(PlantRequests.delete(jar.uri("/plants/" + id), TOKEN).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode());
                    assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50),
                            () -> receiver.acceptedCount() == 2 * id), () -> "delivered " + receiver.accepted());
                }
            }
        }
    }

    /** {@code url} without its {@code user} parameter, which would win over PLANTSTORE_DB_USER. */
    private static String withoutUser(String url) {
        return url.replaceAll("([?&])user=[^&]*&?", "$1");
    }

    private static String withUser(String url, String user) {
        return withoutUser(url) + (withoutUser(url).contains("?") ? "&" : "?") + "user=" + user;
    }

    private static String ownerOf(String url) {
        var user = Pattern.compile("[?&]user=([^&]*)").matcher(url);
        return user.find() ? user.group(1) : System.getProperty("user.name");
    }

    /**
     * The grants of docs/reference.md's "Database privileges", read from the page, for this test's schema and role:
     * the statements from the comment saying migrate has run to the one about later migrations.
     */
    private void grantReadingAndWritingRows() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "reference.md"));
        String section = page.substring(page.indexOf("### Database privileges"));
        String afterMigrate = section.substring(section.indexOf("-- once migrate has created the tables:"));
        List<String> grants = afterMigrate.substring(0, afterMigrate.indexOf("-- so that tables")).lines()
                .filter(line -> line.startsWith("GRANT"))
                .map(line -> line.replace("plantstore.", postgres.schema() + ".")
                        .replace("SCHEMA plantstore ", "SCHEMA " + postgres.schema() + " ")
                        .replace("plantstore_app", role)
                        .replaceAll(";$", ""))
                .toList();
        assertEquals(3, grants.size(), "the page's grants: " + grants);
        asOwner(grants.toArray(String[]::new));
    }

    private void asOwner(String... statements) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.databaseUrl());
             Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
