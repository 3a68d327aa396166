package dev.plantstore.app;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A small tmpfs the test mounts (as root), so that a full disk is a real one; closing unmounts it. */
final class Tmpfs implements AutoCloseable {

    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(10);

    private final Path mountPoint;
    private final Path filler;

    private Tmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
    }

    static Tmpfs mount(Path mountPoint, int kibibytes) throws IOException, InterruptedException {
        Faults.requireRoot();
        Files.createDirectories(mountPoint);
        Faults.run(COMMAND_LIMIT, "mount", "-t", "tmpfs", "-o", "size=" + kibibytes + "k,mode=0777", "tmpfs",
                mountPoint.toString());
        return new Tmpfs(mountPoint);
    }

    Path path() {
        return mountPoint;
    }

    /** Writes a file until the file system has no room left. */
    void fill() throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw full;
            }
        }
    }

    void free() throws IOException {
        Files.delete(filler);
    }

    long freeBytes() throws IOException {
        return Files.getFileStore(mountPoint).getUsableSpace();
    }

    @Override
    public void close() throws IOException {
        try {
            Faults.run(COMMAND_LIMIT, "umount", "--lazy", mountPoint.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + mountPoint, e);
        }
    }
}
