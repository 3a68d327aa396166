package dev.plantstore.core;

import java.util.Collection;

/**
 * Decides whether a bearer token grants access to the plant store. The HTTP layer hands it the token exactly as the
 * client sent it, after {@code Bearer }; a JWT or token-introspection verifier plugs in here without touching the
 * routes.
 *
 * <p>Called concurrently from request threads, so implementations must be thread-safe. They must never log or keep
 * the tokens they are given.
 */
@FunctionalInterface
public interface TokenVerifier {

    /** {@code true} when the token is valid. */
    boolean verify(String token);

    /**
     * A verifier that accepts exactly these tokens. It keeps only their SHA-256 digests and compares digests in
     * constant time, so neither the tokens nor their lengths can be read from memory dumps or timing.
     *
     * @throws IllegalArgumentException when there is no token, or one is not a valid RFC 6750 bearer token
     *                                  (letters, digits and {@code -._~+/}, then optional {@code =} padding); the
     *                                  message gives the token's position, never the token
     */
    static TokenVerifier staticTokens(Collection<String> tokens) {
        return new StaticTokenVerifier(tokens);
    }
}
