package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tokens file the jar must not read, on a real file system: at start-up it is refused in one line, exit status 2,
 * without being opened. {@link TokensFileReloadIT} puts the same files in place while the server runs.
 */
class TokensFileIT {

    @TempDir
    Path dir;

    private Path privateFile(String name, String content) throws Exception {
        Path file = Files.writeString(dir.resolve(name), content);
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /** The jar started with {@code tokensFile}, on a free port and the memory store, run until it exits. */
    private RunningJar.Completed startWith(Path tokensFile) throws Exception {
        return RunningJar.runToCompletion(dir, "--host", "127.0.0.1", "--port", "0", "--store", "memory",
                "--tokens-file", tokensFile.toString());
    }

    private static void assertRefusedInOneLine(String reason, RunningJar.Completed started) {
        assertEquals(new RunningJar.Completed(2, "", "plantstore: " + reason + "\n"), started);
    }

    @Test
    void aFifoIsRefusedWithoutBeingOpened() throws Exception {
        Path tokens = SpecialFiles.fifo(dir.resolve("tokens"));
        assertRefusedInOneLine("tokens file " + tokens + " is a FIFO, not a regular file", startWith(tokens));
    }

    @Test
    void aDirectoryIsRefused() throws Exception {
        Path tokens = Files.createDirectory(dir.resolve("tokens"));
        assertRefusedInOneLine("tokens file " + tokens + " is a directory, not a regular file", startWith(tokens));
    }

    @Test
    void aFileOverOneMebibyteIsRefused() throws Exception {
        String comments = ("# " + "x".repeat(1021) + "\n").repeat(1024);
        Path tokens = privateFile("tokens", comments + "file-token\n");
        assertRefusedInOneLine("tokens file " + tokens + " is larger than 1 MiB (" + Files.size(tokens) + " bytes)",
                startWith(tokens));
    }

    @Test
    void aSparseFileOverTwoGibibytesIsRefused() throws Exception {
        Path tokens = SpecialFiles.sparse(dir.resolve("tokens"), SpecialFiles.OVER_TWO_GIB);
        assertRefusedInOneLine("tokens file " + tokens + " is larger than 1 MiB (" + SpecialFiles.OVER_TWO_GIB
                + " bytes)", startWith(tokens));
    }

    /** The tests run as root, who may give a symbolic link away (chown -h). */
    @Test
    void aSymbolicLinkOwnedByAnotherUserIsRefusedThoughTheFileItLeadsToIsPrivate() throws Exception {
        Path target = privateFile("tokens.private", "file-token\n");
        Path link = Files.createSymbolicLink(dir.resolve("tokens"), target);
        Files.setAttribute(link, "unix:uid", TokensTest.NOBODY, LinkOption.NOFOLLOW_LINKS);
        assertRefusedInOneLine("tokens file " + link + ": symbolic link " + link + " is owned by user "
                + TokensTest.NOBODY + ", not by the user this server runs as (0) or root; make it this server's with: "
                + "chown -h 0 " + link, startWith(link));
    }
}
