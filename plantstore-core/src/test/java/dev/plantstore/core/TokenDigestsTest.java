package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenDigestsTest {

    private final TokenVerifier verifier = TokenVerifier.staticTokens(List.of("alpha-1", "beta.2=="));

    @Test
    void everyConfiguredTokenIsAcceptedWithEveryScopeAndItsPositionAsName() {
        assertEquals(new Verification.Valid("token-1", Set.of(), true), verifier.verify("alpha-1"));
        assertEquals(new Verification.Valid("token-2", Set.of(), true), verifier.verify("beta.2=="));
        assertTrue(((Verification.Valid) verifier.verify("alpha-1")).grants("plants:delete"));
    }

    @Test
    void aNamedTokenIsAcceptedUnderItsName() {
        var named = new LinkedHashMap<String, String>();
        named.put("deploy-bot", "alpha-1");
        named.put("ops@example", "beta.2==");
        var byName = TokenVerifier.staticTokens(named);
        assertEquals(Verification.everyScope("deploy-bot"), byName.verify("alpha-1"));
        assertEquals(Verification.everyScope("ops@example"), byName.verify("beta.2=="));
        assertEquals(Verification.invalid(Verification.Reason.UNKNOWN_TOKEN), byName.verify("deploy-bot"));
    }

    @Test
    void aNameThatCouldForgeALogLineIsRefused() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> TokenVerifier.staticTokens(Map.of("bad name\n", "alpha-1")));
        assertFalse(e.getMessage().contains("alpha-1"));
    }

    @Test
    void otherTokensAreRefusedAsUnknown() {
        assertInvalid(verifier.verify("alpha-2"));
        assertInvalid(verifier.verify("alpha-1 "));
        assertInvalid(verifier.verify("ALPHA-1"));
        assertInvalid(verifier.verify(""));
    }

    @Test
    void noTokenAtAllIsRefusedAsMalformed() {
        assertEquals(Verification.invalid(Verification.Reason.MALFORMED), verifier.verify(null));
    }

    @Test
    void aPrefixOfATokenIsRefused() {
        assertInvalid(verifier.verify("alpha-"));
        assertInvalid(verifier.verify("alpha-1x"));
    }

    private static void assertInvalid(Verification verification) {
        assertEquals(Verification.invalid(Verification.Reason.UNKNOWN_TOKEN), verification);
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

    @Test
    void tokensAreKeptOnlyAsDigestsOfEqualLength() throws Exception {
        var field = TokenDigests.class.getDeclaredField("digests");
        field.setAccessible(true);
        @SuppressWarnings("unchecked")
        List<byte[]> digests = (List<byte[]>) field.get(new TokenDigests(Map.of("a", "alpha-1", "b", "beta.2==")));
        assertEquals(2, digests.size());
        for (byte[] digest : digests) {
            assertEquals(32, digest.length);
        }
    }
}
