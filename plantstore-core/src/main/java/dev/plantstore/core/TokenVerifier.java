package dev.plantstore.core;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what a bearer token grants. The HTTP layer hands it the token exactly as the client sent it, after
 * {@code Bearer }; a JWT or token-introspection verifier plugs in here without touching the routes.
 *
 * <p>Called concurrently from request threads, so implementations must be thread-safe. They must never log or keep
 * the tokens they are given.
 */
@FunctionalInterface
public interface TokenVerifier {

    /** What {@code token} grants, or why it grants nothing; never null. */
    Verification verify(String token);

    /**
     * A verifier that accepts exactly these tokens, each with every scope, named {@code token-1}, {@code token-2}, ...
     * by position. It keeps only their SHA-256 digests and compares digests in constant time, so neither the tokens
     * nor their lengths can be read from memory dumps or timing.
     *
     * @throws IllegalArgumentException when there is no token, or one is not a valid RFC 6750 bearer token
     *                                  (letters, digits and {@code -._~+/}, then optional {@code =} padding); the
     *                                  message gives the token's position, never the token
     */
    static TokenVerifier staticTokens(Collection<String> tokens) {
        Map<String, String> byName = new LinkedHashMap<>();
        int position = 0;
        for (String token : tokens) {
            byName.put("token-" + ++position, token);
        }
        return new TokenDigests(byName)::verify;
    }

    /**
     * A verifier that accepts exactly these tokens, each with every scope, under its name: the principal a request
     * with that token is logged as. A name is 1 to 64 letters, digits and {@code -._@}. Kept as digests, as above.
     *
     * @throws IllegalArgumentException when there is no token, a name is not of that form, or a token is not a valid
     *                                  bearer token; the message never gives the token
     */
    static TokenVerifier staticTokens(Map<String, String> tokensByName) {
        return new TokenDigests(tokensByName)::verify;
    }

    /**
     * A verifier that asks each of {@code verifiers} in turn and answers with the first that finds the token valid;
     * when none does, unavailable if one of them was, else invalid for the reason of the verifier that got furthest
     * (the latest in {@link Verification.Reason}'s order): an expired JWT is expired, though static tokens find it
     * unknown. Put first the one that refuses other kinds of token most cheaply: an identity provider's verifier
     * refuses what is not a JWT by its shape, where static tokens are compared by digest whatever they are given.
     *
     * @throws IllegalArgumentException when the list is empty
     */
    static TokenVerifier firstOf(List<TokenVerifier> verifiers) {
        List<TokenVerifier> inOrder = List.copyOf(verifiers);
        if (inOrder.isEmpty()) {
            throw new IllegalArgumentException("at least one verifier is required");
        }
        return token -> {
            Optional<Verification> unavailable = Optional.empty();
            Optional<Verification.Invalid> furthest = Optional.empty();
            for (TokenVerifier verifier : inOrder) {
                Verification verification = verifier.verify(token);
                if (verification instanceof Verification.Valid) {
                    return verification;
                }
                if (verification instanceof Verification.Unavailable) {
                    unavailable = Optional.of(verification);
                } else if (verification instanceof Verification.Invalid invalid && furthest
                        .map(before -> before.reason().compareTo(invalid.reason()) < 0).orElse(true)) {
                    furthest = Optional.of(invalid);
                }
            }
            if (unavailable.isPresent()) {
                return unavailable.get();
            }
            // Each verifier answered, and none was valid or unavailable.
            return furthest.orElseThrow();
        };
    }
}
