package dev.plantstore.app;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/performance.md, run from the page: the server, then each command, each printing what the
 * page shows. The page's ports 8080 and 9090 are made free ones.
 */
class PerformancePageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxLaunchesWithThePagesFlags() throws Exception {
        ReaderShell.runServerThenCommands("docs/performance.md", dir, "9090");
    }
}
