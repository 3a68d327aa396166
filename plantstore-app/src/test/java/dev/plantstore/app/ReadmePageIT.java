package dev.plantstore.app;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of README.md, run from the page: the server, then each command, each printing what the page shows.
 */
class ReadmePageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxCreatesAndDeletesAPlant() throws Exception {
        ReaderShell.runServerThenCommands("README.md", dir);
    }
}
