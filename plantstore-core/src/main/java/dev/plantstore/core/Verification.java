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

    /** The token is not valid: unknown, expired, forged, or meant for someone else. */
    record Invalid() implements Verification {
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

    static Invalid invalid() {
        return new Invalid();
    }

    static Unavailable unavailable(Duration retryAfter) {
        return new Unavailable(retryAfter);
    }
}

