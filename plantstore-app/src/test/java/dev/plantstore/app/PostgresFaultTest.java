package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server on a real PostgreSQL that goes away and comes back, through {@link TcpProxy}. */
class PostgresFaultTest {

    private static final String TOKEN = "fault-test-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The store's own time-out plus slack for the pool's connection time-out and the machine. */
    private static final Duration BOUND = Duration.ofSeconds(8);

    private TestPostgres postgres;
    private TcpProxy proxy;
    private final Closing closing = new Closing();
    private PlantStoreServer server;
    private long nextId = 1;

    @BeforeEach
    void start() throws Exception {
        postgres = TestPostgres.freshSchema();
        proxy = new TcpProxy(postgres.host(), postgres.port());
        var store = DefaultStore.open(new StoreSpec.Postgres(postgres.schemaUrlThrough(proxy.port())), closing);
        var api = PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(TOKEN)));
        server = PlantStoreServer.start(api, "127.0.0.1", 0);
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
            assertTrue(closing.closeAll(System.err::println), "the store closed cleanly");
            proxy.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private HttpResponse<String> create() throws Exception {
        var request = PlantRequests.create(URI.create("http://127.0.0.1:" + server.port() + "/plants"), TOKEN,
                PlantRequests.plantJson(nextId++, "Fern")).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> health() throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private void assertUnavailableWithinBound() throws Exception {
        long started = System.nanoTime();
        var response = create();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertEquals(503, response.statusCode(), response.body());
        assertEquals("{\"error\":503,\"message\":\"the plant store is unavailable; try again later\"}",
                response.body());
        assertTrue(took.compareTo(BOUND) < 0, "answered in " + took.toMillis() + " ms");
        assertEquals(503, health().statusCode());
        assertEquals("{\"status\":\"DOWN\"}", health().body());
    }

    private void assertRecovers() throws Exception {
        assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(10), () -> create().statusCode() == 200),
                "creates succeed again once the database is back");
        assertEquals(200, health().statusCode());
    }

    @Test
    void databaseGoneIs503WithinABoundedTimeAndTheServiceRecoversByItself() throws Exception {
        assertEquals(200, create().statusCode());
        proxy.refuse();
        assertUnavailableWithinBound();
        proxy.forward();
        assertRecovers();
    }

    @Test
    void aFirstLoginThatTakesLongerThanTheConnectTimeOutIsWaitedForAtStart() throws Exception {
        var opening = new Closing();
        try (var slow = new TcpProxy(postgres.host(), postgres.port())) {
            slow.blackHole();
            Thread answers = new Thread(() -> {
                try {
                    // Plays a database, or a starved machine, that takes 3 s to answer the first login.
                    Thread.sleep(3_000);
                    slow.forward();
                } catch (InterruptedException | IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            answers.start();
            var store = DefaultStore.open(new StoreSpec.Postgres(postgres.schemaUrlThrough(slow.port())), opening);
            answers.join();
            assertTrue(store.isAvailable(), "the store opened once the login was answered");
        } finally {
            assertTrue(opening.closeAll(System.err::println), "the store closed cleanly");
        }
    }

    @Test
    void databaseHangingIs503WithinABoundedTimeAndTheServiceRecoversByItself() throws Exception {
        assertEquals(200, create().statusCode());
        proxy.stall();
        assertUnavailableWithinBound();
        proxy.forward();
        assertRecovers();
    }
}
