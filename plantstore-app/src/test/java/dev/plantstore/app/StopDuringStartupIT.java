package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop that arrives while the server is still starting, here while it waits for a database that accepts the
 * connection and never answers: tracing and the management port's metrics are open by then, the server not yet.
 */
class StopDuringStartupIT {

    @TempDir
    Path dir;

    @Test
    void aSigtermWhileTheStoreOpensClosesWhatWasOpenedAndSaysSoInOneLine() throws Exception {
        try (var silentDatabase = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> connections = new CopyOnWriteArrayList<>();
            Thread accepting = new Thread(() -> {
                try {
                    while (true) {
                        connections.add(silentDatabase.accept());
                    }
                } catch (IOException closed) {
                    // The test is over.
                }
            });
            accepting.setDaemon(true);
            accepting.start();
            try (JarProcess jar = RunningJar.launch(dir, Map.of("PLANTSTORE_TOKENS", "stop-token",
                            "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9", "PLANTSTORE_MANAGEMENT_PORT", "0"),
                    "--store", "jdbc:postgresql://127.0.0.1:" + silentDatabase.getLocalPort() + "/plants?user=u")) {
                assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20), () -> !connections.isEmpty()),
                        () -> "the server never reached the database: " + jar.output());

                jar.process().destroy();

                assertTrue(jar.process().waitFor(RunningJar.STOP_LIMIT.toSeconds(), TimeUnit.SECONDS),
                        () -> "still running: " + jar.output());
                String output = jar.output();
                assertEquals(0, jar.process().exitValue(), output);
                assertTrue(output.endsWith("plantstore stopped during start-up\n"), output);
                assertFalse(output.contains("Exception") || output.contains("\tat "), output);
                assertFalse(output.contains("listening"), output);
            } finally {
                for (Socket connection : connections) {
                    connection.close();
                }
            }
        }
    }
}
