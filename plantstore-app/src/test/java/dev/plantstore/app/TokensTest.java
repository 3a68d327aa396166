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
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokensTest {

    @TempDir
    Path dir;

    private Path file(String content) throws IOException {
        Path file = Files.writeString(dir.resolve("tokens"), content, StandardCharsets.UTF_8);
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aTokenMayCarryTheNameItsRequestsAreLoggedAs() throws Exception {
        assertEquals(java.util.Map.of("ci-bot", "abc", "token-2", "def", "ops@example", "ghi"),
                Tokens.named(Optional.of("ci-bot:abc, def"), Optional.of(file("# ops\nops@example: ghi\n"))));
        var verifier = TokenVerifier.staticTokens(Tokens.named(Optional.of("ci-bot:abc"), Optional.empty()));
        assertEquals("ci-bot", assertInstanceOf(Verification.Valid.class, verifier.verify("abc")).principal());
        assertInstanceOf(Verification.Invalid.class, verifier.verify("ci-bot:abc"));
    }

    @Test
    void twoTokensWithOneNameAreRefused() {
        var e = assertThrows(UsageException.class, () -> Tokens.named(Optional.of("a:x,a:y"), Optional.empty()));
        assertEquals("two tokens are named a; each name must be one token's", e.getMessage());
    }

    @ParameterizedTest(name = "mode {0}")
    @ValueSource(strings = {"rw-r--r--", "rw-r-----", "rw----r--", "rw--w----", "rw-----w-"})
    void aFileOtherUsersCanReadOrWriteIsRefused(String mode) throws Exception {
        Path tokens = file("secret\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString(mode));
        var e = assertThrows(UsageException.class, () -> Tokens.configured(Optional.empty(), Optional.of(tokens)));
        assertEquals("tokens file " + tokens + " is open to other users (" + mode + "); make it private with: chmod 600 "
                + tokens, e.getMessage());
    }

    @Test
    void aFileOnlyItsOwnerCanReadIsAccepted() throws Exception {
        Path tokens = file("secret\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("r--------"));
        assertEquals(List.of("secret"), Tokens.configured(Optional.empty(), Optional.of(tokens)));
    }

    @Test
    void environmentTokensAreCommaSeparatedAndTrimmed() throws UsageException {
        assertEquals(List.of("a1", "b2", "c3"), Tokens.configured(Optional.of(" a1, b2,,c3 ,"), Optional.empty()));
    }

    @Test
    void fileHasOneTokenPerLineWithCommentsAndBlankLines() throws Exception {
        Path tokens = file("# production\nalpha\n\n  beta  \n# retired: gamma\n");
        assertEquals(List.of("alpha", "beta"), Tokens.configured(Optional.empty(), Optional.of(tokens)));
    }

    @Test
    void environmentAndFileTokensAreBothAccepted() throws Exception {
        assertEquals(List.of("env", "file"), Tokens.configured(Optional.of("env"), Optional.of(file("file\n"))));
    }

    @Test
    void noTokenAnywhereIsEmpty() throws UsageException {
        assertEquals(List.of(), Tokens.configured(Optional.empty(), Optional.empty()));
        assertEquals(List.of(), Tokens.configured(Optional.of(" , "), Optional.empty()));
    }

    @Test
    void missingFileIsAClearError() {
        Path missing = dir.resolve("nope");
        var e = assertThrows(UsageException.class, () -> Tokens.configured(Optional.empty(), Optional.of(missing)));
        assertEquals("tokens file " + missing + " does not exist", e.getMessage());
    }

    @Test
    void fileWithOnlyCommentsIsAnError() throws Exception {
        Path tokens = file("# nothing yet\n\n");
        var e = assertThrows(UsageException.class, () -> Tokens.configured(Optional.empty(), Optional.of(tokens)));
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
}
