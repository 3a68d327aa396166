package dev.plantstore.http;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The before-handler that admits a request only with a valid bearer token (RFC 6750), on the routes that need one.
 *
 * <p>A request's credentials are judged once, in {@link #decide}, whoever asks first: the server's body reader (which
 * reads ahead only the body of a create it admits) or this handler. The decision is kept on the request, so that a
 * refused token counts once against its address however many places look, and a limited address is refused before its
 * token is looked at, everywhere a token is needed. Paths that need no token never ask, so a token there changes
 * nothing. The token is never logged or echoed. Only the server sets request attributes; a client cannot.
 */
final class BearerAuth implements Handler {

    static final String CHALLENGE = "Bearer realm=\"plantstore\"";
    static final String INVALID_TOKEN_CHALLENGE = CHALLENGE + ", error=\"invalid_token\"";

    private static final String SCHEME = "Bearer";
    private static final String DECISION = "plantstore.authentication";

    /** What a request's credentials earn it. Refusals carry what the client is told. */
    sealed interface Decision {
    }

    /** {@code verification}: who presented the token and what it grants. */
    record Admitted(Verification.Valid verification) implements Decision {
    }

    /** {@code headers}: a challenge ({@code WWW-Authenticate}), when to retry ({@code Retry-After}). */
    record Refused(int status, String message, Map<String, String> headers) implements Decision {
        Refused {
            headers = Map.copyOf(headers);
        }

        ApiProblem problem() {
            return new ApiProblem(status, message);
        }
    }

    private final TokenVerifier verifier;
    private final Optional<AuthFailureLimiter> limiter;

    BearerAuth(TokenVerifier verifier, Optional<AuthFailureLimiter> limiter) {
        this.verifier = verifier;
        this.limiter = limiter;
    }

    @Override
    public void handle(Context ctx) {
        Decision decision = ctx.attribute(DECISION);
        if (decision == null) {
            decision = decide(Collections.list(ctx.req().getHeaders("Authorization")), ctx.ip());
            ctx.attribute(DECISION, decision);
        }
        if (decision instanceof Refused refused) {
            refused.headers().forEach(ctx::header);
            throw refused.problem();
        }
    }

    /** The decision for a request as Jetty holds it, made now if no one has made it yet. */
    Decision decisionFor(Request request) {
        if (request.getAttribute(DECISION) instanceof Decision made) {
            return made;
        }
        Decision decision = decide(request.getHeaders().getValuesList(HttpHeader.AUTHORIZATION),
                Request.getRemoteAddr(request));
        request.setAttribute(DECISION, decision);
        return decision;
    }

    /** The one place credentials are judged: the limit first, then the header, then the token. */
    private Decision decide(List<String> authorizations, String address) {
        long retryAfter = limiter.map(l -> l.retryAfterSeconds(address)).orElse(0L);
        if (retryAfter > 0) {
            return new Refused(429, "too many refused tokens from this address; retry after " + retryAfter + " s",
                    Map.of("Retry-After", Long.toString(retryAfter)));
        }
        if (authorizations.size() > 1) {
            // Proxies disagree about which of two wins; the request is ambiguous, not merely unauthenticated.
            return new Refused(400, "send one Authorization header, not " + authorizations.size(), Map.of());
        }
        if (authorizations.isEmpty()) {
            return unauthorized(CHALLENGE, "Authorization header is required: Bearer <token>");
        }
        String authorization = authorizations.get(0);
        if (!isBearer(authorization)) {
            return unauthorized(CHALLENGE, "Authorization scheme must be Bearer");
        }
        String token = authorization.substring(SCHEME.length()).strip();
        if (token.isEmpty()) {
            return unauthorized(CHALLENGE, "bearer token is missing");
        }
        if (!(verifier.verify(token) instanceof Verification.Valid valid)) {
            limiter.ifPresent(l -> l.recordFailure(address));
            return unauthorized(INVALID_TOKEN_CHALLENGE, "bearer token is not valid");
        }
        return new Admitted(valid);
    }

    /** The scheme name is case-insensitive (RFC 9110 section 11.1); one or more spaces follow it. */
    private static boolean isBearer(String authorization) {
        return authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && (authorization.length() == SCHEME.length() || authorization.charAt(SCHEME.length()) == ' ');
    }

    private static Refused unauthorized(String challenge, String message) {
        return new Refused(401, message, Map.of("WWW-Authenticate", challenge));
    }
}
