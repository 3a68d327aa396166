package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.plantstore.core.Verification.Reason;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FirstOfVerifierTest {

    private static final TokenVerifier STATIC = TokenVerifier.staticTokens(List.of("static-1"));
    private static final TokenVerifier DOWN = token -> Verification.unavailable(Duration.ofSeconds(7));
    private static final TokenVerifier JWT = token -> switch (token) {
        case "jwt" -> Verification.valid("alice", Set.of("plants:create"));
        case "expired-jwt" -> Verification.invalid(Reason.EXPIRED);
        default -> Verification.invalid(Reason.NOT_A_JWT);
    };

    @Test
    void theFirstVerifierThatAcceptsDecides() {
        var both = TokenVerifier.firstOf(List.of(STATIC, JWT));
        assertEquals(Verification.everyScope("token-1"), both.verify("static-1"));
        assertEquals(Verification.valid("alice", Set.of("plants:create")), both.verify("jwt"));
    }

    /** The verifier that got furthest with the token knew its kind: its reason is the one worth logging. */
    @Test
    void aTokenNoneAcceptsIsRefusedForTheReasonOfTheVerifierThatGotFurthest() {
        for (var verifiers : List.of(List.of(STATIC, JWT), List.of(JWT, STATIC))) {
            var both = TokenVerifier.firstOf(verifiers);
            assertEquals(Verification.invalid(Reason.UNKNOWN_TOKEN), both.verify("neither"));
            assertEquals(Verification.invalid(Reason.EXPIRED), both.verify("expired-jwt"));
        }
    }

    /** A verifier that cannot decide now must not turn a token another verifier accepts into a refusal. */
    @Test
    void anUnavailableVerifierLeavesTheOthersToDecide() {
        var both = TokenVerifier.firstOf(List.of(DOWN, STATIC));
        assertEquals(Verification.everyScope("token-1"), both.verify("static-1"));
        assertEquals(Verification.unavailable(Duration.ofSeconds(7)), both.verify("neither"));
    }

    @Test
    void atLeastOneVerifierIsRequired() {
        assertThrows(IllegalArgumentException.class, () -> TokenVerifier.firstOf(List.of()));
    }

    @Test
    void aValidVerificationNeedsAPrincipal() {
        assertThrows(IllegalArgumentException.class, () -> Verification.valid(" ", Set.of()));
    }

    @Test
    void aGrantedScopeIsGrantedAndNoOther() {
        var valid = Verification.valid("alice", Set.of("plants:create"));
        assertEquals(true, valid.grants("plants:create"));
        assertEquals(false, valid.grants("plants:delete"));
    }
}
