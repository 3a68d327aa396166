package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.TokenVerifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokensTest {

    @TempDir
    Path dir;

    private Path file(String content) throws IOException {
        return Files.writeString(dir.resolve("tokens"), content, StandardCharsets.UTF_8);
    }

    @Test
    void environmentTokensAreCommaSeparatedAndTrimmed() throws UsageException {
        assertEquals(List.of("a1", "b2", "c3"), Tokens.configured(" a1, b2,,c3 ,", Optional.empty()));
    }

    @Test
    void fileHasOneTokenPerLineWithCommentsAndBlankLines() throws Exception {
        Path tokens = file("# production\nalpha\n\n  beta  \n# retired: gamma\n");
        assertEquals(List.of("alpha", "beta"), Tokens.configured(null, Optional.of(tokens)));
    }

    @Test
    void environmentAndFileTokensAreBothAccepted() throws Exception {
        assertEquals(List.of("env", "file"), Tokens.configured("env", Optional.of(file("file\n"))));
    }

    @Test
    void noTokenAnywhereIsEmpty() throws UsageException {
        assertEquals(List.of(), Tokens.configured(null, Optional.empty()));
        assertEquals(List.of(), Tokens.configured(" , ", Optional.empty()));
    }

    @Test
    void missingFileIsAClearError() {
        Path missing = dir.resolve("nope");
        var e = assertThrows(UsageException.class, () -> Tokens.configured(null, Optional.of(missing)));
        assertEquals("tokens file " + missing + " does not exist", e.getMessage());
    }

    @Test
    void fileWithOnlyCommentsIsAnError() throws Exception {
        Path tokens = file("# nothing yet\n\n");
        var e = assertThrows(UsageException.class, () -> Tokens.configured(null, Optional.of(tokens)));
        assertEquals("tokens file " + tokens + " holds no token", e.getMessage());
    }

    @Test
    void generatedTokensAre256RandomBitsAndValidBearerTokens() {
        String first = Tokens.generate();
        assertEquals(43, first.length());
        assertTrue(first.matches("[A-Za-z0-9_-]{43}"), first);
        assertNotEquals(first, Tokens.generate());
        assertTrue(TokenVerifier.staticTokens(List.of(first)).verify(first));
    }
}
