package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CreatePlantTest {

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void validNewPlantIs200WithExactlyThePlantBody() {
        withServer(store, (server, client) -> {
            var response = create(client, "{\"id\": 1, \"name\": \"Monstera\", \"tag\": \"aroid\"}");
            assertEquals(200, response.code());
            assertEquals("application/json", response.headers().get("Content-Type").get(0));
            assertEquals("{\"name\":\"Monstera\",\"tag\":\"aroid\"}", response.body().string());
            assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(1));
        });
    }

    @Test
    void tagIsOmittedWhenAbsent() {
        withServer(store, (server, client) ->
                assertEquals("{\"name\":\"Fern\"}", create(client, "{\"id\":2,\"name\":\"Fern\"}").body().string()));
    }

    @Test
    void nullTagMeansAbsent() {
        withServer(store, (server, client) -> {
            assertEquals("{\"name\":\"Fern\"}",
                    create(client, "{\"id\":3,\"name\":\"Fern\",\"tag\":null}").body().string());
            assertEquals(Optional.of(new Plant("Fern", null)), store.find(3));
        });
    }

    @Test
    void unknownExtraFieldsAreIgnored() {
        withServer(store, (server, client) -> {
            var response = create(client, "{\"id\":4,\"name\":\"Fern\",\"colour\":\"green\",\"pot\":{\"cm\":[1,2]}}");
            assertEquals(200, response.code());
            assertEquals("{\"name\":\"Fern\"}", response.body().string());
        });
    }

    @Test
    void anyInt64IsAnIdNegativeOnesIncluded() {
        withServer(store, (server, client) -> {
            for (long id : new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE}) {
                assertEquals(200, create(client, "{\"id\":" + id + ",\"name\":\"n\"}").code(), "id " + id);
                assertEquals(Optional.of(new Plant("n", null)), store.find(id));
            }
        });
    }

    @Test
    void idAlreadyInTheStoreIs409AndKeepsTheFirstPlant() {
        store.create(new NewPlant(5, "Monstera", "aroid"));
        withServer(store, (server, client) -> {
            String message = assertError(create(client, "{\"id\":5,\"name\":\"Fern\"}"), 409);
            assertEquals("a plant with id 5 already exists", message);
            assertEquals(Optional.of(new Plant("Monstera", "aroid")), store.find(5));
        });
    }

    @Test
    void textOutsideAsciiRoundTrips() {
        withServer(store, (server, client) -> {
            var response = create(client,
                    "{\"id\":6,\"name\":\"Cact\u00fas \uD83C\uDF35\",\"tag\":\"\\u00e9\\\"q\\\"\"}");
            assertEquals(200, response.code());
            assertEquals("{\"name\":\"Cact\u00fas \uD83C\uDF35\",\"tag\":\"\u00e9\\\"q\\\"\"}",
                    response.body().string());
            assertEquals(Optional.of(new Plant("Cact\u00fas \uD83C\uDF35", "\u00e9\"q\"")), store.find(6));
        });
    }

    @Test
    void namesAndTagsAreStoredAsSentWithoutTrimming() {
        withServer(store, (server, client) -> {
            assertEquals("{\"name\":\"  Fern \",\"tag\":\" \"}",
                    create(client, "{\"id\":7,\"name\":\"  Fern \",\"tag\":\" \"}").body().string());
            assertEquals(Optional.of(new Plant("  Fern ", " ")), store.find(7));
        });
    }

    @Test
    void anEmptyTagIsATagUnlikeNull() {
        withServer(store, (server, client) -> {
            assertEquals("{\"name\":\"Fern\",\"tag\":\"\"}",
                    create(client, "{\"id\":8,\"name\":\"Fern\",\"tag\":\"\"}").body().string());
            assertEquals(Optional.of(new Plant("Fern", "")), store.find(8));
        });
    }
}
