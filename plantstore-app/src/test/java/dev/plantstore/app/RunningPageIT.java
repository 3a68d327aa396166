package dev.plantstore.app;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/running.md, run from the page: the server, then each command, each printing what the page
 * shows.
 */
class RunningPageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxServesBacksUpAndListsTheOptions() throws Exception {
        ReaderShell.runServerThenCommands("docs/running.md", dir);
    }
}
