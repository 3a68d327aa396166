package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the operator sets about the server's PostgreSQL connections: their number, and the schema in the URL. */
class PostgresConnectionSettingsIT {

    private static final String TOKEN = "connection-settings-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private TestPostgres postgres;

    @BeforeEach
    void freshSchema() {
        postgres = TestPostgres.freshSchema();
    }

    @AfterEach
    void dropSchema() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void theServerKeepsAsManyConnectionsAsTheDbPoolSizeUnderLoadToo() throws Exception {
        String application = "plantstore-pool-" + UUID.randomUUID();
        String store = postgres.schemaUrl() + "&ApplicationName=" + application;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_DB_POOL_SIZE", "3"),
                "--store", store)) {
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50), () -> connections(application) == 3),
                    "the server came to hold 3 connections");
            List<CompletableFuture<HttpResponse<Void>>> creates = new ArrayList<>();
            for (long id = 1; id <= 200; id++) {
                creates.add(HTTP.sendAsync(PlantRequests.create(jar.uri("/plants"), TOKEN,
                        PlantRequests.plantJson(id, "Plant " + id)).build(), HttpResponse.BodyHandlers.discarding()));
            }
            for (var create : creates) {
                assertEquals(200, create.join().statusCode());
            }
            assertEquals(3, connections(application));
        }
    }

    @Test
    void theTablesAreInTheSchemaTheUrlNames() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", postgres.schemaUrl())) {
            assertEquals(200, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                    PlantRequests.plantJson(7, "Fern")).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        try (Connection connection = DriverManager.getConnection(postgres.databaseUrl());
             Statement statement = connection.createStatement();
             ResultSet plant = statement.executeQuery(
                     "SELECT name FROM " + postgres.schema() + ".plants WHERE id = 7")) {
            assertTrue(plant.next(), "the plant is in " + postgres.schema() + ".plants");
            assertEquals("Fern", plant.getString(1));
        }
    }

    private int connections(String application) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.databaseUrl());
             PreparedStatement count = connection.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
            count.setString(1, application);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }
}
