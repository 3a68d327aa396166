package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeletePlantTest {

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void deleteOfAStoredPlantIs204WithNoBody() {
        store.create(new NewPlant(7, "Fern"));
        withServer(store, (server, client) -> {
            var response = delete(client, "7");
            assertEquals(204, response.code());
            assertEquals("", response.body().string());
            assertEquals(null, response.headers().get("Content-Type"));
            assertEquals(Optional.empty(), store.find(7));
        });
    }

    @Test
    void deleteOfUnknownIdIs404() {
        withServer(store, (server, client) ->
                assertEquals("no plant with id 7", assertError(delete(client, "7"), 404)));
    }

    @Test
    void deleteTwiceIs204Then404() {
        store.create(new NewPlant(7, "Fern"));
        withServer(store, (server, client) -> {
            assertEquals(204, delete(client, "7").code());
            assertError(delete(client, "7"), 404);
        });
    }

    @Test
    void negativeAndExtremeIdsCanBeDeleted() {
        for (long id : new long[] {Long.MIN_VALUE, -1, Long.MAX_VALUE}) {
            store.create(new NewPlant(id, "n"));
        }
        withServer(store, (server, client) -> {
            for (long id : new long[] {Long.MIN_VALUE, -1, Long.MAX_VALUE}) {
                assertEquals(204, delete(client, Long.toString(id)).code(), "id " + id);
            }
        });
    }

    @Test
    void anIdDeletedEarlierMayBeCreatedAgain() {
        withServer(store, (server, client) -> {
            assertEquals(200, create(client, "{\"id\":8,\"name\":\"Fern\"}").code());
            assertEquals(204, delete(client, "8").code());
            assertEquals(200, create(client, "{\"id\":8,\"name\":\"Cactus\"}").code());
            assertEquals("Cactus", store.find(8).orElseThrow().name());
        });
    }

    @ParameterizedTest(name = "id [{0}]")
    @ValueSource(strings = {"abc", "1.5", "+5", "0x10", "1e3", "-", "%D9%A3", "%201", "1%20", "--1"})
    void idThatIsNotABase10IntegerIs400(String id) {
        store.create(new NewPlant(1, "Fern"));
        withServer(store, (server, client) -> {
            assertEquals("id in the path must be a base-10 integer", assertError(delete(client, id), 400));
            assertTrue(store.find(1).isPresent());
        });
    }

    @ParameterizedTest(name = "id {0}")
    @ValueSource(strings = {"9223372036854775808", "-9223372036854775809", "99999999999999999999999"})
    void idOutsideInt64Is400(String id) {
        withServer(store, (server, client) ->
                assertTrue(assertError(delete(client, id), 400).startsWith("id in the path must be within the int64")));
    }

    @ParameterizedTest(name = "id {0}")
    @ValueSource(strings = {"007", "00", "-01"})
    void idWithLeadingZerosIs400(String id) {
        store.create(new NewPlant(7, "Fern"));
        store.create(new NewPlant(0, "Zero"));
        withServer(store, (server, client) -> {
            assertEquals("id in the path must not have leading zeros", assertError(delete(client, id), 400));
            assertTrue(store.find(7).isPresent());
            assertTrue(store.find(0).isPresent());
        });
    }

    @ParameterizedTest(name = "id {0}")
    @ValueSource(strings = {"0", "-0"})
    void zeroIsAnId(String id) {
        store.create(new NewPlant(0, "Zero"));
        withServer(store, (server, client) -> assertEquals(204, delete(client, id).code()));
    }
}
