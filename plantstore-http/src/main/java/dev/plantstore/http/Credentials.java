package dev.plantstore.http;

import dev.plantstore.core.Verification;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What a request's credentials earn it, and why a token was refused. */
final class Credentials {

    private Credentials() {
    }

    /**
     * What a request's credentials earn it, decided once per request by the API's authentication and kept on the
     * request's exchange. Refusals carry what the client is told.
     */
    sealed interface Decision permits Admitted, Refused {
    }

    /** {@code verification}: who presented the token and what it grants. */
    record Admitted(Verification.Valid verification) implements Decision {
    }

    /**
     * {@code headers}: a challenge ({@code WWW-Authenticate}), when to retry ({@code Retry-After});
     * {@code tokenRefusal}: why the token was refused, when it was read.
     */
    record Refused(int status, String message, Map<String, String> headers, Optional<TokenRefusal> tokenRefusal)
            implements Decision {
        Refused {
            headers = Map.copyOf(headers);
        }

        Refused(int status, String message, Map<String, String> headers) {
            this(status, message, headers, Optional.empty());
        }

        ApiProblem problem() {
            return new ApiProblem(status, message);
        }
    }

    /**
     * Why a token, once read, was refused: for a 401 the verifier's {@link Verification.Reason}, else the token's lack
     * of scope (403) or the keys it needs (503). The label is the metric's and the access line's; the client's answer
     * never gives it.
     */
    record TokenRefusal(String label) {

        static final TokenRefusal INSUFFICIENT_SCOPE = new TokenRefusal("insufficient_scope");
        static final TokenRefusal KEYS_UNAVAILABLE = new TokenRefusal("keys_unavailable");

        static TokenRefusal invalid(Verification.Reason reason) {
            return new TokenRefusal(reason.name().toLowerCase(Locale.ROOT));
        }

        /** Every refusal there can be, so that each has its series from the start. */
        static List<TokenRefusal> all() {
            var all = new ArrayList<TokenRefusal>();
            for (Verification.Reason reason : Verification.Reason.values()) {
                all.add(invalid(reason));
            }
            all.add(INSUFFICIENT_SCOPE);
            all.add(KEYS_UNAVAILABLE);
            return List.copyOf(all);
        }
    }
}
