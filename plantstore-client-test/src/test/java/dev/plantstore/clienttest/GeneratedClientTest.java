package dev.plantstore.clienttest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.plantstore.client.ApiClient;
import dev.plantstore.client.ApiException;
import dev.plantstore.client.api.PlantsApi;
import dev.plantstore.client.model.NewPlant;
import dev.plantstore.client.model.Plant;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A Java client generated from openapi.yaml by OpenAPI Generator, against a real server: the document is usable. */
class GeneratedClientTest {

    private static final String TOKEN = "generated-client-token";

    private PlantStoreServer server;
    private PlantsApi plants;

    @BeforeEach
    void start() {
        // The client is generated from openapi.yaml at build time; the server need not serve the document.
        var api = PlantStoreApi.of(PlantStores.inMemory(), TokenVerifier.staticTokens(List.of(TOKEN))).withDocs(false);
        server = PlantStoreServer.start(api, "127.0.0.1", 0);
        var client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + server.port());
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + TOKEN));
        plants = new PlantsApi(client);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void createReturnsThePlant() throws ApiException {
        Plant plant = plants.createPlant(new NewPlant().id(1L).name("Monstera").tag("aroid"));
        assertEquals("Monstera", plant.getName());
        assertEquals("aroid", plant.getTag());
    }

    @Test
    void createWithoutATagReturnsAPlantWithoutOne() throws ApiException {
        assertNull(plants.createPlant(new NewPlant().id(-9L).name("Fern")).getTag());
    }

    @Test
    void duplicateCreateIsA409() throws ApiException {
        plants.createPlant(new NewPlant().id(2L).name("Fern"));
        var duplicate = assertThrows(ApiException.class, () -> plants.createPlant(new NewPlant().id(2L).name("Moss")));
        assertEquals(409, duplicate.getCode());
        assertEquals("{\"error\":409,\"message\":\"a plant with id 2 already exists\"}", duplicate.getResponseBody());
    }

    @Test
    void deleteThenDeleteAgainIsA404() throws ApiException {
        plants.createPlant(new NewPlant().id(Long.MAX_VALUE).name("Fern"));
        plants.deletePlant(Long.MAX_VALUE);
        var unknown = assertThrows(ApiException.class, () -> plants.deletePlant(Long.MAX_VALUE));
        assertEquals(404, unknown.getCode());
    }

    @Test
    void withoutTheTokenTheClientGetsA401() {
        var anonymous = new ApiClient();
        anonymous.updateBaseUri("http://127.0.0.1:" + server.port());
        var refused = assertThrows(ApiException.class, () -> new PlantsApi(anonymous).deletePlant(1L));
        assertEquals(401, refused.getCode());
    }
}
