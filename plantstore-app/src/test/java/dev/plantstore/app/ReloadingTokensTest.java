package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import dev.plantstore.testkit.Poll;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Static tokens rotate without a restart: the tokens file is read again when it changes, and only if it is sound. */
class ReloadingTokensTest {

    private static final Duration CHECK_EVERY = Duration.ofMillis(20);

    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        Path file = Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /** How many times the file was read, whether or not it was refused. */
    private final AtomicInteger reads = new AtomicInteger();

    private ReloadingTokens watch(Path file) throws UsageException {
        return ReloadingTokens.watch(file, () -> {
            reads.incrementAndGet();
            return TokenVerifier.staticTokens(Tokens.named(Optional.empty(), Optional.of(file)));
        }, CHECK_EVERY);
    }

    private void awaitReads(int count) throws InterruptedException {
        assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY, () -> reads.get() >= count),
                "the file was read " + reads.get() + " times, not " + count);
    }

    private static boolean accepts(TokenVerifier verifier, String token) {
        return verifier.verify(token) instanceof Verification.Valid;
    }

    @Test
    void aTokenAddedToTheFileIsAcceptedAndOneRemovedIsRefusedWithoutARestart() throws Exception {
        Path file = write("tokens", "old-token-1\n");
        try (var tokens = watch(file)) {
            assertTrue(accepts(tokens, "old-token-1"));
            Path replacement = write("tokens.new", "ci:new-token\n");
            Files.move(replacement, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY, () -> accepts(tokens, "new-token")),
                    "the new token is accepted");
            assertEquals("ci", assertInstanceOf(Verification.Valid.class, tokens.verify("new-token")).principal());
            assertInstanceOf(Verification.Invalid.class, tokens.verify("old-token-1"));
        }
    }

    @Test
    void aChangedFileThatIsRefusedLeavesTheTokensInUse() throws Exception {
        Path file = write("tokens", "kept-token\n");
        try (var tokens = watch(file)) {
            Files.move(write("tokens.bad", "not a token!\nsecond-token\n"), file,
                    StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitReads(2);
            assertTrue(accepts(tokens, "kept-token"), "the refused file changed nothing");
            assertInstanceOf(Verification.Invalid.class, tokens.verify("second-token"));
        }
    }

    @Test
    void aFileMadeReadableByOthersIsRefusedAndTheTokensStay() throws Exception {
        Path file = write("tokens", "private-token\n");
        try (var tokens = watch(file)) {
            Path leaked = write("tokens.leaked", "private-token\nleaked-token\n");
            Files.setPosixFilePermissions(leaked, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(leaked, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitReads(2);
            assertInstanceOf(Verification.Invalid.class, tokens.verify("leaked-token"));
            assertTrue(accepts(tokens, "private-token"));
        }
    }

    @Test
    void aFileBeingWrittenByteByByteIsNeverUsedHalfWay() throws Exception {
        Path file = write("tokens", "first-token\n");
        String line = "second-token\n";
        try (var tokens = watch(file); var out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
            for (int i = 0; i < line.length(); i++) {
                int readsBefore = reads.get();
                out.write(line.charAt(i));
                out.flush();
                if (i < line.length() - 1) {
                    // The watcher has looked at the file as it now is, and read it.
                    awaitReads(readsBefore + 1);
                    String written = line.substring(0, i + 1);
                    assertFalse(accepts(tokens, written), () -> "a token cut short, " + written + ", is accepted");
                    assertFalse(accepts(tokens, "second-token"));
                    assertTrue(accepts(tokens, "first-token"));
                }
            }
            assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY, () -> accepts(tokens, "second-token")),
                    "the whole line is accepted once written");
            assertTrue(accepts(tokens, "first-token"));
        }
    }

    @Test
    void makingARefusedFilePrivateAsTheLogAdvisesReloadsIt() throws Exception {
        Path file = write("tokens", "kept-token\n");
        try (var tokens = watch(file)) {
            Path open = write("tokens.open", "fixed-token\n");
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(open, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitReads(2);
            assertFalse(accepts(tokens, "fixed-token"));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY, () -> accepts(tokens, "fixed-token")),
                    "chmod 600 alone reloads the file");
            assertFalse(accepts(tokens, "kept-token"));
        }
    }

    @Test
    void aFileGivenToAnotherUserIsRefusedAndTheTokensStay() throws Exception {
        Path file = write("tokens", "kept-token\n");
        try (var tokens = watch(file)) {
            Path foreign = write("tokens.foreign", "kept-token\nforeign-token\n");
            Files.setAttribute(foreign, "unix:uid", TokensTest.NOBODY);
            Files.move(foreign, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitReads(2);
            assertFalse(accepts(tokens, "foreign-token"));
            assertTrue(accepts(tokens, "kept-token"));
        }
    }

    @Test
    void aTooShortTokenInAChangedFileIsRefusedAndTheTokensStay() throws Exception {
        Path file = write("tokens", "kept-token\n");
        try (var tokens = watch(file)) {
            Files.move(write("tokens.short", "kept-token\nnew-token\nshort\n"), file,
                    StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitReads(2);
            assertFalse(accepts(tokens, "new-token"));
            assertFalse(accepts(tokens, "short"));
            assertTrue(accepts(tokens, "kept-token"));
        }
    }

    /**
     * An Error, such as running out of memory while reading, is survived: the file is read again, and used. A
     * failure that repeats is logged once when it starts and once when it ends, each in one line.
     */
    @Test
    void anErrorWhileReadingAChangedFileIsLoggedOnceAndDoesNotStopTheWatch() throws Exception {
        var log = new ByteArrayOutputStream();
        LogLines.use(new LogLines(log, LogLines.Format.TEXT, new LogLines.Timestamps(ZoneOffset.UTC)));
        Path file = write("tokens", "kept-token\n");
        AtomicInteger attempts = new AtomicInteger();
        try (var tokens = ReloadingTokens.watch(file, () -> {
            int attempt = attempts.incrementAndGet();
            if (attempt == 2 || attempt == 3) {
                throw new OutOfMemoryError("Required array size too large");
            }
            return TokenVerifier.staticTokens(Tokens.named(Optional.empty(), Optional.of(file)));
        }, CHECK_EVERY)) {
            Files.move(write("tokens.new", "new-token\n"), file, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY, () -> accepts(tokens, "new-token")),
                    () -> "the new token is not accepted after " + attempts.get() + " reads");
            assertFalse(accepts(tokens, "kept-token"));
            assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY,
                    () -> log.toString(StandardCharsets.UTF_8).contains(" works again")), log::toString);
        } finally {
            LogLines.use(new LogLines(System.err, LogLines.Format.TEXT, new LogLines.Timestamps(ZoneOffset.UTC)));
        }
        // Only this file's lines: a watcher of an earlier test may finish a check it began while this one ran.
        List<String> lines = log.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains(" " + file + " ")).toList();
        assertEquals(3, lines.size(), () -> String.join("\n", lines));
        assertTrue(lines.get(0).endsWith(" ERROR ReloadingTokens - checking tokens file " + file + " failed "
                + "(java.lang.OutOfMemoryError: Required array size too large); the tokens read before stay in use, "
                + "and the file is still watched"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" tokens file " + file + " changed: its tokens are in use"), lines.get(1));
        assertTrue(lines.get(2).endsWith(" INFO ReloadingTokens - checking tokens file " + file + " works again"),
                lines.get(2));
    }

    /** Opening a FIFO to read it would wait for a writer for ever, and the watch with it. */
    @Test
    void aFifoRenamedOverTheFileIsRefusedUnopenedAndAValidFilePutBackIsUsed() throws Exception {
        refusedThenValidFilePutBack(SpecialFiles.fifo(dir.resolve("tokens.fifo")));
    }

    /** A whole read of this file would throw OutOfMemoryError ("Required array size too large") at any heap size. */
    @Test
    void aFileOverTwoGibibytesRenamedOverTheFileIsRefusedUnreadAndAValidFilePutBackIsUsed() throws Exception {
        refusedThenValidFilePutBack(SpecialFiles.sparse(dir.resolve("tokens.huge"), SpecialFiles.OVER_TWO_GIB));
    }

    private void refusedThenValidFilePutBack(Path unreadable) throws Exception {
        Path file = write("tokens", "kept-token\n");
        try (var tokens = watch(file)) {
            Files.move(unreadable, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            awaitReads(2);
            assertTrue(accepts(tokens, "kept-token"));
            Files.move(write("tokens.new", "new-token\n"), file, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            assertTrue(Poll.until(Duration.ofSeconds(5), CHECK_EVERY, () -> accepts(tokens, "new-token")),
                    "the valid file put back is used");
            assertFalse(accepts(tokens, "kept-token"));
        }
    }

    @Test
    void aFileCreatedBesideTheTokensFileIsNoChangeToIt() throws Exception {
        Path file = write("tokens", "kept-token\n");
        try (var tokens = watch(file)) {
            write("tokens.swp", "an editor's\n");
            assertFalse(Poll.until(CHECK_EVERY.multipliedBy(10), CHECK_EVERY, () -> reads.get() > 1),
                    "the file was read again");
            assertTrue(accepts(tokens, "kept-token"));
        }
    }
}
