package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StaticTokenVerifierTest {

    private final TokenVerifier verifier = TokenVerifier.staticTokens(List.of("alpha-1", "beta.2=="));

    @Test
    void everyConfiguredTokenIsAccepted() {
        assertTrue(verifier.verify("alpha-1"));
        assertTrue(verifier.verify("beta.2=="));
    }

    @Test
    void otherTokensAreRefused() {
        assertFalse(verifier.verify("alpha-2"));
        assertFalse(verifier.verify("alpha-1 "));
        assertFalse(verifier.verify("ALPHA-1"));
        assertFalse(verifier.verify(""));
        assertFalse(verifier.verify(null));
    }

    @Test
    void aPrefixOfATokenIsRefused() {
        assertFalse(verifier.verify("alpha-"));
        assertFalse(verifier.verify("alpha-1x"));
    }

    @Test
    void atLeastOneTokenIsRequired() {
        assertThrows(IllegalArgumentException.class, () -> TokenVerifier.staticTokens(List.of()));
    }

    @Test
    void aTokenOutsideTheBearerSyntaxIsRefusedWithoutEchoingIt() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> TokenVerifier.staticTokens(List.of("good", "has space")));
        assertEquals("token 2 of 2 is not a valid bearer token (letters, digits and -._~+/ then optional =)",
                e.getMessage());
    }

    @Test
    void aNullTokenIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> TokenVerifier.staticTokens(new ArrayList<>(Arrays.asList("good", null))));
    }

    /**
     * What the timing of a check could reveal depends only on what is compared: here always every configured digest,
     * each against a digest of the same length, whatever the token presented, its length, or which token matches.
     */
    @ParameterizedTest(name = "presented [{0}]")
    @ValueSource(strings = {"alpha-1", "beta.2==", "a", "alpha-", "alpha-1-but-much-longer-than-any-configured-token", ""})
    void everyCheckComparesEveryDigestAtFullLength(String presented) {
        List<int[]> comparedLengths = new ArrayList<>();
        var watched = new StaticTokenVerifier(List.of("alpha-1", "beta.2==", "gamma"), (known, given) -> {
            comparedLengths.add(new int[] {known.length, given.length});
            return java.security.MessageDigest.isEqual(known, given);
        });
        watched.verify(presented);
        assertEquals(3, comparedLengths.size());
        for (int[] lengths : comparedLengths) {
            assertEquals(32, lengths[0]);
            assertEquals(32, lengths[1]);
        }
    }

    @Test
    void tokensAreKeptOnlyAsDigestsOfEqualLength() throws Exception {
        var field = StaticTokenVerifier.class.getDeclaredField("digests");
        field.setAccessible(true);
        @SuppressWarnings("unchecked")
        List<byte[]> digests = (List<byte[]>) field.get(verifier);
        assertEquals(2, digests.size());
        for (byte[] digest : digests) {
            assertEquals(32, digest.length);
        }
    }
}
