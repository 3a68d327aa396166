package dev.plantstore.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The SQLite store the last release of schema version 1 wrote, kept with plantstore-core's migration tests (its
 * README there says how it was made).
 */
final class Version1Store {

    private static final Path FILE = Path.of("..", "plantstore-core", "src", "test", "resources", "dev", "plantstore",
            "core", "jdbc", "version1", "plants-v1.db");

    private Version1Store() {
    }

    /** A copy of it in {@code dir}. */
    static Path copyInto(Path dir) throws IOException {
        return Files.copy(FILE, dir.resolve("plants-v1.db"));
    }
}
