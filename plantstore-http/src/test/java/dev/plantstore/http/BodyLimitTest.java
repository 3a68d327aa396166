package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.post;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.ErrorResponses;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class BodyLimitTest {

    private final PlantStore store = PlantStores.inMemory();

    /** A valid NewPlant padded with trailing spaces to exactly {@code size} bytes. */
    private static byte[] plantOfSize(int size) {
        String plant = "{\"id\":1,\"name\":\"Fern\"}";
        return (plant + " ".repeat(size - plant.length())).getBytes(StandardCharsets.US_ASCII);
    }

    /** Without a known length the client sends the body chunked, with no Content-Length. */
    private static BodyPublisher chunked(byte[] body) {
        return BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body));
    }

    private void assertStatus(PlantStoreApi api, BodyPublisher body, int status) {
        withServer(api, (server, client) -> {
            var response = post(client, body,
                    request -> request.header("Authorization", BEARER).header("Content-Type", "application/json"));
            if (status == 200) {
                assertEquals(200, response.code(), response.body().string());
            } else {
                assertError(response, status);
                assertEquals(Optional.empty(), store.find(1));
            }
        });
    }

    @Tag(TestTransport.HTTP1_SOCKET)
    @Test
    void bodyOverTheDefault64KiBWithContentLengthIs413() {
        withServer(TestApi.api(store), (server, client) -> {
            String response = RawHttp.answerBeforeBody(client.getOrigin(),
                    RawHttp.createHead(64 * 1024 + 1, "Authorization: " + BEARER));
            ErrorResponses.assertError(response, 413);
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @Test
    void bodyOverTheDefault64KiBWithoutContentLengthIs413() {
        assertStatus(TestApi.api(store), chunked(plantOfSize(64 * 1024 + 1)), 413);
    }

    @Test
    void bodyOfExactlyTheLimitIsAccepted() {
        assertStatus(TestApi.api(store), BodyPublishers.ofByteArray(plantOfSize(64 * 1024)), 200);
        assertStatus(TestApi.api(PlantStores.inMemory()), chunked(plantOfSize(64 * 1024)), 200);
    }

    @Test
    void theLimitIsConfigurable() {
        PlantStoreApi small = TestApi.api(store).withMaxBodyBytes(100);
        assertStatus(small, BodyPublishers.ofByteArray(plantOfSize(101)), 413);
        assertStatus(small, chunked(plantOfSize(101)), 413);
        assertStatus(small, BodyPublishers.ofByteArray(plantOfSize(100)), 200);
    }

    @Test
    void theMessageStatesTheLimit() {
        withServer(TestApi.api(store).withMaxBodyBytes(100), (server, client) -> {
            var response = post(client, BodyPublishers.ofByteArray(plantOfSize(101)),
                    request -> request.header("Authorization", BEARER).header("Content-Type", "application/json"));
            assertEquals("request body must not exceed 100 bytes", assertError(response, 413));
        });
    }
}
