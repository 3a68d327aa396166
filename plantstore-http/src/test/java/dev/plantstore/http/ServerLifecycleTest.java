package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class ServerLifecycleTest {

    private static int healthStatus(int port) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health")).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void portZeroBindsAFreePortAndReportsIt() throws Exception {
        try (var server = PlantStoreServer.start(TestApi.api(PlantStore.inMemory()), "127.0.0.1", 0)) {
            assertTrue(server.port() > 0);
            assertEquals("127.0.0.1", server.host());
            assertEquals(200, healthStatus(server.port()));
        }
    }

    @Test
    void closeStopsListening() throws Exception {
        var server = PlantStoreServer.start(TestApi.api(PlantStore.inMemory()), "127.0.0.1", 0);
        int port = server.port();
        server.close();
        assertThrows(ConnectException.class, () -> healthStatus(port));
    }

    @Test
    void portOutOfRangeIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> PlantStoreServer.start(TestApi.api(PlantStore.inMemory()), "127.0.0.1", 65_536));
    }
}
