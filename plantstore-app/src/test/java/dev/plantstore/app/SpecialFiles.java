package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Files that are trouble to read, private to their owner like a good tokens file, made on the real file system. */
final class SpecialFiles {

    /** Longer than any Java array: a whole read throws OutOfMemoryError at any heap size. */
    static final long OVER_TWO_GIB = (2L << 30) + 1;

    private SpecialFiles() {
    }

    /** A named pipe: whoever opens it for reading waits until someone opens it for writing. */
    static Path fifo(Path path) throws Exception {
        assertEquals(0, new ProcessBuilder("mkfifo", "-m", "600", path.toString()).inheritIO().start().waitFor(),
                "mkfifo");
        return path;
    }

    /** A file of {@code length} zero bytes that takes no space on disk. */
    static Path sparse(Path path, long length) throws Exception {
        Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (var sparse = new RandomAccessFile(path.toFile(), "rw")) {
            sparse.setLength(length);
        }
        return path;
    }
}
