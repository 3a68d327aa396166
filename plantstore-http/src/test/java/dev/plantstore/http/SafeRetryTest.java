package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.testtools.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** A client that lost an answer (503, time-out, reset) simply sends the same request again. */
class SafeRetryTest {

    private static final int CLIENTS = 16;

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void aRetriedCreateOfTheStoredPlantIs200WithThePlant() {
        withServer(store, (server, client) -> {
            String json = "{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}";
            assertEquals(200, create(client, json).code());
            var retried = create(client, json);
            assertEquals(200, retried.code());
            assertEquals("{\"name\":\"Monstera\",\"tag\":\"aroid\"}", retried.body().string());
        });
    }

    @Test
    void aNullTagAndAnAbsentTagAreTheSamePlant() {
        store.create(new NewPlant(2, "Fern"));
        withServer(store, (server, client) -> {
            var retried = create(client, "{\"id\":2,\"name\":\"Fern\",\"tag\":null}");
            assertEquals(200, retried.code());
            assertEquals("{\"name\":\"Fern\"}", retried.body().string());
        });
    }

    @Test
    void aCreateOfADifferentPlantUnderAStoredIdIs409() {
        store.create(new NewPlant(3, "Fern"));
        withServer(store, (server, client) -> {
            assertEquals("a plant with id 3 already exists",
                    assertError(create(client, "{\"id\":3,\"name\":\"Fern\",\"tag\":\"\"}"), 409));
            assertEquals(Optional.of(new Plant("Fern", null)), store.find(3));
        });
    }

    @Test
    void aRetriedDeleteOfAPlantAlreadyDeletedIs404() {
        store.create(new NewPlant(4, "Fern"));
        withServer(store, (server, client) -> {
            assertEquals(204, delete(client, "4").code());
            assertError(delete(client, "4"), 404);
        });
    }

    @Test
    void concurrentIdenticalCreatesAreAll200() {
        withServer(store, (server, client) -> {
            List<Integer> statuses = race(client, n -> "{\"id\":5,\"name\":\"Monstera\",\"tag\":\"aroid\"}");
            assertEquals(CLIENTS, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
        });
    }

    @Test
    void concurrentDifferingCreatesAreOne200AndTheRest409() {
        withServer(store, (server, client) -> {
            List<Integer> statuses = race(client, n -> "{\"id\":6,\"name\":\"plant " + n + "\"}");
            assertEquals(1, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
            assertEquals(CLIENTS - 1, statuses.stream().filter(status -> status == 409).count(), statuses.toString());
        });
    }

    /** The status of each of {@link #CLIENTS} creates sent at once, the n-th with body {@code json(n)}. */
    private static List<Integer> race(HttpClient client, IntFunction<String> json) throws Exception {
        var together = new CyclicBarrier(CLIENTS);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            for (int n = 0; n < CLIENTS; n++) {
                String body = json.apply(n);
                sent.add(pool.submit(() -> {
                    together.await();
                    return create(client, body).code();
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> status : sent) {
                statuses.add(status.get());
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }
}
