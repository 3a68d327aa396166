package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokensTest {

    /** The user nobody's id on Debian and most other systems. */
    static final int NOBODY = 65_534;

    @TempDir
    Path dir;

    private Path file(String content) throws IOException {
        Path file = Files.writeString(dir.resolve("tokens"), content, StandardCharsets.UTF_8);
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aTokenMayCarryTheNameItsRequestsAreLoggedAs() throws Exception {
        assertEquals(java.util.Map.of("ci-bot", "abc-token", "token-2", "def-token", "ops@example", "ghi-token"),
                Tokens.named(Optional.of("ci-bot:abc-token, def-token"),
                        Optional.of(file("# ops\nops@example: ghi-token\n"))));
        var verifier = TokenVerifier.staticTokens(Tokens.named(Optional.of("ci-bot:abc-token"), Optional.empty()));
        assertEquals("ci-bot", assertInstanceOf(Verification.Valid.class, verifier.verify("abc-token")).principal());
        assertInstanceOf(Verification.Invalid.class, verifier.verify("ci-bot:abc-token"));
    }

    @Test
    void twoTokensWithOneNameAreRefused() {
        var e = assertThrows(UsageException.class, () -> Tokens.named(Optional.of("a:token-one,a:token-two"),
                Optional.empty()));
        assertEquals("two tokens are named a; each name must be one token's", e.getMessage());
    }

    @ParameterizedTest(name = "mode {0}")
    @ValueSource(strings = {"rw-r--r--", "rw-r-----", "rw----r--", "rw--w----", "rw-----w-"})
    void aFileOtherUsersCanReadOrWriteIsRefused(String mode) throws Exception {
        Path tokens = file("secret-token\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString(mode));
        var e = assertThrows(UsageException.class, () -> configured(Optional.empty(), Optional.of(tokens)));
        assertEquals("tokens file " + tokens + " is open to other users (" + mode
                + "); make it private with: chmod 600 " + tokens, e.getMessage());
    }

    @Test
    void aFileOnlyItsOwnerCanReadIsAccepted() throws Exception {
        Path tokens = file("secret-token\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("r--------"));
        assertEquals(List.of("secret-token"), configured(Optional.empty(), Optional.of(tokens)));
    }

    @Test
    void environmentTokensAreCommaSeparatedAndTrimmed() throws UsageException {
        assertEquals(List.of("token-a1", "token-b2", "token-c3"),
                configured(Optional.of(" token-a1, token-b2,,token-c3 ,"), Optional.empty()));
    }

    @Test
    void fileHasOneTokenPerLineWithCommentsAndBlankLines() throws Exception {
        Path tokens = file("# production\nalpha-token\n\n  beta-token  \n# retired: gamma\n");
        assertEquals(List.of("alpha-token", "beta-token"), configured(Optional.empty(), Optional.of(tokens)));
    }

    @Test
    void environmentAndFileTokensAreBothAccepted() throws Exception {
        assertEquals(List.of("env-token", "file-token"),
                configured(Optional.of("env-token"), Optional.of(file("file-token\n"))));
    }

    @Test
    void aTokenShorterThanTheMinimumIsRefusedByName() throws Exception {
        String shortest = "a".repeat(Tokens.MIN_TOKEN_LENGTH);
        assertEquals(List.of(shortest), configured(Optional.of(shortest), Optional.empty()));
        var fromEnvironment = assertThrows(UsageException.class,
                () -> Tokens.named(Optional.of("long-enough, ci-bot:" + shortest.substring(1)), Optional.empty()));
        assertEquals("token ci-bot has 7 characters; a token needs at least 8", fromEnvironment.getMessage());
        var fromFile = assertThrows(UsageException.class,
                () -> Tokens.named(Optional.empty(), Optional.of(file("long-enough\nx\n"))));
        assertEquals("token token-2 has 1 characters; a token needs at least 8", fromFile.getMessage());
    }

    @Test
    void aFileWhoseLastLineHasNoNewlineIsRefused() throws Exception {
        Path tokens = file("first-token\nsecond-tok");
        var e = assertThrows(UsageException.class, () -> configured(Optional.empty(), Optional.of(tokens)));
        assertEquals("tokens file " + tokens + " does not end with a newline: its last line may still be being "
                + "written; end every line with one", e.getMessage());
    }

    /** The tests run as root, who may give a file away. */
    @Test
    void aFileOwnedByAnotherUserIsRefused() throws Exception {
        Path tokens = file("secret-token\n");
        Files.setAttribute(tokens, "unix:uid", NOBODY);
        var e = assertThrows(UsageException.class, () -> configured(Optional.empty(), Optional.of(tokens)));
        assertEquals("tokens file " + tokens + " is owned by user " + NOBODY + ", not by the user this server runs as ("
                + new com.sun.security.auth.module.UnixSystem().getUid() + ") or root; make it this server's with: "
                + "chown " + new com.sun.security.auth.module.UnixSystem().getUid() + " " + tokens, e.getMessage());
    }

    @Test
    void noTokenAnywhereIsEmpty() throws UsageException {
        assertEquals(List.of(), configured(Optional.empty(), Optional.empty()));
        assertEquals(List.of(), configured(Optional.of(" , "), Optional.empty()));
    }

    @Test
    void missingFileIsAClearError() {
        Path missing = dir.resolve("nope");
        var e = assertThrows(UsageException.class, () -> configured(Optional.empty(), Optional.of(missing)));
        assertEquals("tokens file " + missing + " does not exist", e.getMessage());
    }

    @Test
    void fileWithOnlyCommentsIsAnError() throws Exception {
        Path tokens = file("# nothing yet\n\n");
        var e = assertThrows(UsageException.class, () -> configured(Optional.empty(), Optional.of(tokens)));
        assertEquals("tokens file " + tokens + " holds no token", e.getMessage());
    }

    @Test
    void generatedTokensAre256RandomBitsAndValidBearerTokens() {
        String first = Tokens.generate();
        assertEquals(43, first.length());
        assertTrue(first.matches("[A-Za-z0-9_-]{43}"), first);
        assertNotEquals(first, Tokens.generate());
        assertInstanceOf(Verification.Valid.class, TokenVerifier.staticTokens(List.of(first)).verify(first));
    }

    private static String owner(String subject, Path path, String chown) {
        long self = new com.sun.security.auth.module.UnixSystem().getUid();
        return subject + " is owned by user " + NOBODY + ", not by the user this server runs as (" + self
                + ") or root; make it this server's with: " + chown + " " + self + " " + path;
    }

    private static String refusal(Path tokens) {
        return assertThrows(UsageException.class, () -> configured(Optional.empty(), Optional.of(tokens)))
                .getMessage();
    }

    @Test
    void aFileOfOneMebibyteIsReadAndOneByteMoreIsRefused() throws Exception {
        String token = "t".repeat(1023);
        Path tokens = file(("#" + "x".repeat(1022) + "\n").repeat(1023) + token + "\n");
        assertEquals(1 << 20, Files.size(tokens));
        assertEquals(List.of(token), configured(Optional.empty(), Optional.of(tokens)));
        Files.writeString(tokens, "\n", java.nio.file.StandardOpenOption.APPEND);
        assertEquals("tokens file " + tokens + " is larger than 1 MiB (1048577 bytes)", refusal(tokens));
    }

    @Test
    void aFileInADirectoryOtherUsersMayWriteToIsRefused() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));
        Path tokens = Files.move(file("secret-token\n"), shared.resolve("tokens"));
        assertEquals("tokens file " + tokens + ": directory " + shared + " lets other users replace the file "
                + "(rwxrwxr-x); make it private with: chmod go-w " + shared, refusal(tokens));
    }

    /** With the sticky bit (as in /tmp), only a file's owner may rename or remove it. */
    @Test
    void aFileInADirectoryWithTheStickyBitIsReadThoughOthersMayWriteThere() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setAttribute(shared, "unix:mode", 01777);
        Path tokens = Files.move(file("secret-token\n"), shared.resolve("tokens"));
        assertEquals(List.of("secret-token"), configured(Optional.empty(), Optional.of(tokens)));
    }

    @Test
    void aFileInADirectoryOwnedByAnotherUserIsRefused() throws Exception {
        Path foreign = Files.createDirectory(dir.resolve("foreign"));
        Path tokens = Files.move(file("secret-token\n"), foreign.resolve("tokens"));
        Files.setAttribute(foreign, "unix:uid", NOBODY);
        assertEquals(owner("tokens file " + tokens + ": directory " + foreign, foreign, "chown"), refusal(tokens));
    }

    @Test
    void aSymbolicLinkOwnedByAnotherUserIsRefused() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("link"), file("secret-token\n"));
        Files.setAttribute(link, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
        assertEquals(owner("tokens file " + link + ": symbolic link " + link, link, "chown -h"), refusal(link));
    }

    @Test
    void aSymbolicLinkToAFileOpenToOtherUsersIsRefusedNamingThatFile() throws Exception {
        Path target = file("secret-token\n");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertEquals("tokens file " + link + ": its target " + target + " is open to other users (rw-r--r--); make "
                + "it private with: chmod 600 " + target, refusal(link));
    }

    @Test
    void aSymbolicLinkToAFileInAnotherUsersDirectoryIsRefused() throws Exception {
        Path foreign = Files.createDirectory(dir.resolve("foreign"));
        Path target = Files.move(file("secret-token\n"), foreign.resolve("tokens"));
        Files.setAttribute(foreign, "unix:uid", NOBODY);
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertEquals(owner("tokens file " + link + ": directory " + foreign, foreign, "chown"), refusal(link));
    }

    /**
     * A Kubernetes secret volume: a world-writable directory with the sticky bit, the file a link through the link
     * {@code ..data} to a directory the kubelet swaps when the secret changes.
     */
    @Test
    void aKubernetesSecretVolumesLinksAreFollowed() throws Exception {
        Path volume = Files.createDirectory(dir.resolve("volume"));
        Path version = Files.createDirectory(volume.resolve("..2026_11_26_12_00_00.1"));
        Files.setPosixFilePermissions(version, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(Files.move(file("secret-token\n"), version.resolve("tokens")),
                PosixFilePermissions.fromString("r--------"));
        Files.createSymbolicLink(volume.resolve("..data"), version.getFileName());
        Path tokens = Files.createSymbolicLink(volume.resolve("tokens"), Path.of("..data/tokens"));
        Files.setAttribute(volume, "unix:mode", 01777);
        assertEquals(List.of("secret-token"), configured(Optional.empty(), Optional.of(tokens)));
    }

    /** The configured tokens alone, without their names, in order. */
    private static List<String> configured(Optional<String> environmentValue, Optional<Path> tokensFile)
            throws UsageException {
        return List.copyOf(Tokens.named(environmentValue, tokensFile).values());
    }
}
