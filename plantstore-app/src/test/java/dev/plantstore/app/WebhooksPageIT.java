package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.testkit.DoThisBox;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Sockets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/webhooks.md, run from the page: the receiver, the server sending to it, and a create,
 * whose event the receiver then prints as the page shows. The page's ports 9000 and 8080 are made free ones.
 */
class WebhooksPageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxsReceiverGetsTheEventOfACreate() throws Exception {
        String serverPort = Integer.toString(Sockets.freePort());
        List<DoThisBox.Step> steps = DoThisBox.steps(ReaderShell.ROOT.resolve("docs/webhooks.md"),
                Map.of("8080", serverPort, "9000", Integer.toString(Sockets.freePort())));
        assertEquals(3, steps.size(), "the box is the receiver, the server and a create: " + steps);
        try (ReaderShell shell = ReaderShell.in(dir)) {
            JarProcess receiver = shell.start(steps.get(0).command(), "receiver", Map.of());
            JarProcess server = shell.start(steps.get(1).command(), "server", Map.of("PLANTSTORE_PORT", serverPort));
            ReaderShell.awaitShown(server, steps.get(1));
            shell.run(steps.get(2), "create", Map.of());
            ReaderShell.awaitShown(receiver, steps.get(0));
        }
    }
}
