package dev.plantstore.app;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/behaviour.md, run from the page: the server, then each command, each printing what the page
 * shows.
 */
class BehaviourPageIT {

    @TempDir
    Path dir;

    @Test
    void theBoxShowsTheAnswersThePageDecides() throws Exception {
        ReaderShell.runServerThenCommands("docs/behaviour.md", dir);
    }
}
