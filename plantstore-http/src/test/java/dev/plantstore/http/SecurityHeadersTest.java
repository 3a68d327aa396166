package dev.plantstore.http;

import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import io.javalin.testtools.Response;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every response says: do not store me, do not sniff my type. */
class SecurityHeadersTest {

    private static void assertHardened(Response response, String what) {
        assertEquals(List.of("no-store"), response.headers().get("Cache-Control"), what);
        assertEquals(List.of("nosniff"), response.headers().get("X-Content-Type-Options"), what);
    }

    @Test
    void apiResponsesOfEveryKindCarryNoStoreAndNosniff() {
        withServer(PlantStores.inMemory(), (server, client) -> {
            assertHardened(create(client, "{\"id\":1,\"name\":\"Fern\"}"), "200");
            assertHardened(create(client, "{\"id\":1,\"name\":\"Moss\"}"), "409");
            assertHardened(create(client, "{"), "400");
            assertHardened(delete(client, "1"), "204");
            assertHardened(delete(client, "1"), "404");
            assertHardened(client.get("/plants"), "401");
            assertHardened(TestApi.send(client, "PUT", "/plants", "Authorization", TestApi.BEARER), "405");
            assertHardened(client.get("/health"), "health");
            assertHardened(client.get("/nowhere"), "unknown path");
        });
    }

    @Test
    void jettysOwnErrorsCarryThemToo() throws Exception {
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0);
             var socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write("GARBAGE\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(response.contains("\r\nCache-Control: no-store\r\n"), response);
            assertTrue(response.contains("\r\nX-Content-Type-Options: nosniff\r\n"), response);
        }
    }
}
