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
 * The "Do this" box of docs/running.md, run from the page: the server, then each command, each printing what the page
 * shows; and the page's TLS box the same way.
 */
class RunningPageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxServesBacksUpAndListsTheOptions() throws Exception {
        ReaderShell.runServerThenCommands("docs/running.md", dir);
    }

    /** The TLS box: the pair made first, then the server on it, then a create over HTTP/2. */
    @Test
    void theTlsBoxMakesAPairServesItAndCreatesOverHttp2() throws Exception {
        String port = Integer.toString(Sockets.freePort());
        List<DoThisBox.Step> steps = DoThisBox.steps(ReaderShell.ROOT.resolve("docs/running.md"), "Serve TLS",
                Map.of("8080", port));
        assertEquals(3, steps.size(), "make the pair, serve it, use it: " + steps);
        try (ReaderShell shell = ReaderShell.in(dir)) {
            shell.run(steps.get(0), "pair", Map.of());
            JarProcess server = shell.start(steps.get(1).command(), "server", Map.of("PLANTSTORE_PORT", port));
            ReaderShell.awaitShown(server, steps.get(1));
            shell.run(steps.get(2), "create", Map.of());
        }
    }
}
