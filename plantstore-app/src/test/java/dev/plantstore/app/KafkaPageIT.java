package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.DoThisBox;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Sockets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/kafka.md, run from the page: the test kit's broker, the server sending to it, a create and
 * a delete, and Kafka's console consumer, which shows their two records with the headers the page shows. The page's
 * ports 9092 and 8080 are made free ones.
 */
class KafkaPageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxsConsumerShowsTheRecordsOfACreateAndADelete() throws Exception {
        String serverPort = Integer.toString(Sockets.freePort());
        List<DoThisBox.Step> steps = DoThisBox.steps(ReaderShell.ROOT.resolve("docs/kafka.md"),
                Map.of("8080", serverPort, "9092", Integer.toString(Sockets.freePort())));
        assertEquals(4, steps.size(), "the box is the broker, the server, the writes and the consumer: " + steps);
        try (ReaderShell shell = ReaderShell.in(dir)) {
            JarProcess broker = shell.start(steps.get(0).command(), ReaderShell.ROOT, "broker", Map.of());
            ReaderShell.awaitShown(broker, steps.get(0));
            JarProcess server = shell.start(steps.get(1).command(), "server", Map.of("PLANTSTORE_PORT", serverPort));
            ReaderShell.awaitShown(server, steps.get(1));
            shell.run(steps.get(2), "writes", Map.of());
            JarProcess consumer = shell.start(steps.get(3).command(), ReaderShell.ROOT, "consumer", Map.of());
            assertTrue(consumer.process().waitFor(90, TimeUnit.SECONDS), "the consumer ends: " + consumer.output());
            assertEquals(0, consumer.process().exitValue(), consumer.output());
            steps.get(3).assertShownIn(consumer.output());
        }
    }
}
