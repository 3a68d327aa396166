package dev.plantstore.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link TokenVerifier} decided about one token: valid, with who presented it and what it may do; invalid; or
 * undecidable for now, because what it would be checked against (an identity provider's keys) cannot be had.
 */
public sealed interface Verification {

    /**
     * A valid token. {@code principal} names who presented it (a JWT's subject, a static token's name) and is safe to
     * log; {@code scopes} are the operations it grants, or every operation when {@code everyScope} is set.
     */
    record Valid(String principal, Set<String> scopes, boolean everyScope) implements Verification {

        public Valid {
            Objects.requireNonNull(principal, "null principal");
            if (principal.isBlank()) {
                throw new IllegalArgumentException("principal must not be blank");
            }
            scopes = Set.copyOf(scopes);
        }

        /** Whether this token grants {@code scope}. */
        public boolean grants(String scope) {
            return everyScope || scopes.contains(scope);
        }
    }

    /**
     * The token is not valid: unknown, expired, forged, or meant for someone else; {@code reason} says which, for the
     * server's log and metrics. A client is never told it: it would help one forge a token.
     */
    record Invalid(Reason reason) implements Verification {

        public Invalid {
            Objects.requireNonNull(reason, "null reason");
        }
    }

    /**
     * Why a token is invalid. Declared in the order an identity provider's verifier checks a token, with a static
     * token's {@link #UNKNOWN_TOKEN} placed just after {@link #NOT_A_JWT}: of several verifiers' refusals,
     * {@link TokenVerifier#firstOf} answers with the latest, that of the verifier that knew the token's kind.
     */
    enum Reason {
        /** Not a JWT at all (three base64url parts joined by dots), to a verifier of JWTs. */
        NOT_A_JWT,
        /** Not one of the tokens the verifier knows, such as a static token that no configured one matches. */
        UNKNOWN_TOKEN,
        /**
         * Not well formed: a JWT that does not parse as a signed one ({@code alg: none} among them), a signature not in
         * canonical base64url, a claim of the wrong type.
         */
        MALFORMED,
        /** The header's {@code typ} is not an access token's, or it names no key ({@code kid}). */
        HEADER,
        /** The header's {@code alg} is not one the verifier accepts, such as an HMAC. */
        ALGORITHM,
        /** Issued by another issuer than the one configured. */
        ISSUER,
        /** Signed with a key the issuer does not publish, or no longer. */
        KEY_UNKNOWN,
        /** The signature does not hold with the key it names, or that key may not make it. */
        SIGNATURE,
        /** Meant for another audience. */
        AUDIENCE,
        /** Past its expiry, beyond the clock skew. */
        EXPIRED,
        /** Before its {@code nbf}, or issued ({@code iat}) in the future, beyond the clock skew. */
        NOT_YET_VALID,
        /** Without a claim the verifier requires: {@code exp} or {@code sub}. */
        MISSING_CLAIM
    }

    /** The token cannot be checked now; asking again after {@code retryAfter} may succeed. */
    record Unavailable(Duration retryAfter) implements Verification {

        public Unavailable {
            Objects.requireNonNull(retryAfter, "null retryAfter");
        }
    }

    /** Valid for {@code principal}, granting exactly {@code scopes}. */
    static Valid valid(String principal, Set<String> scopes) {
        return new Valid(principal, scopes, false);
    }

    /** Valid for {@code principal}, granting every scope. */
    static Valid everyScope(String principal) {
        return new Valid(principal, Set.of(), true);
    }

    /** Invalid, for {@code reason}. */
    static Invalid invalid(Reason reason) {
        return new Invalid(reason);
    }

    static Unavailable unavailable(Duration retryAfter) {
        return new Unavailable(retryAfter);
    }
}

