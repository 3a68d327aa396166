package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** At the connection cap the server stops accepting; a waiting client is served once a connection closes. */
class MaxConnectionsTest {

    private static final int CAP = 5;

    @Test
    void atTheCapANewConnectionWaitsUntilAnotherCloses() throws Exception {
        List<Socket> open = new ArrayList<>();
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0,
                ClientLimits.defaults().withMaxConnections(CAP))) {
            for (int i = 0; i < CAP; i++) {
                open.add(new Socket("127.0.0.1", server.port()));
            }
            try (var waiting = new Socket("127.0.0.1", server.port())) {
                waiting.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                waiting.setSoTimeout(1_000);
                assertThrows(SocketTimeoutException.class, () -> waiting.getInputStream().read(),
                        "not accepted while the cap is reached");

                open.remove(0).close();
                waiting.setSoTimeout(10_000);
                String response = new String(waiting.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(response.startsWith("HTTP/1.1 200 "), response);
            }
        } finally {
            for (Socket socket : open) {
                close(socket);
            }
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing a test's own socket; nothing to report.
        }
    }
}
