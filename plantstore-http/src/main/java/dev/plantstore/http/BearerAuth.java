package dev.plantstore.http;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The before-handler that admits a request only with a valid bearer token (RFC 6750). It runs before any body is
 * read, so a refused client learns nothing about the request it sent. The token is never logged or echoed. An
 * address that has sent too many refused tokens gets 429 without its token being looked at.
 */
final class BearerAuth implements Handler {

    static final String CHALLENGE = "Bearer realm=\"plantstore\"";
    static final String INVALID_TOKEN_CHALLENGE = CHALLENGE + ", error=\"invalid_token\"";

    private static final String SCHEME = "Bearer";

    /**
     * Set by {@link #admitsAndRemembers} on a request whose {@code Authorization} header it verified, to that header's
     * value: the handler then need not verify the same token again (hashing it is a few percent of a create's cost).
     * Only the server sets request attributes; a client cannot.
     */
    private static final String VERIFIED_AUTHORIZATION = "plantstore.verifiedAuthorization";

    private final TokenVerifier verifier;
    private final Optional<AuthFailureLimiter> limiter;

    BearerAuth(TokenVerifier verifier, Optional<AuthFailureLimiter> limiter) {
        this.verifier = verifier;
        this.limiter = limiter;
    }

    @Override
    public void handle(Context ctx) {
        String address = ctx.ip();
        long retryAfter = limiter.map(l -> l.retryAfterSeconds(address)).orElse(0L);
        if (retryAfter > 0) {
            ctx.header("Retry-After", Long.toString(retryAfter));
            throw new ApiProblem(429, "too many refused tokens from this address; retry after " + retryAfter + " s");
        }
        String authorization = ctx.header("Authorization");
        if (authorization == null) {
            throw unauthorized(ctx, CHALLENGE, "Authorization header is required: Bearer <token>");
        }
        if (authorization.equals(ctx.attribute(VERIFIED_AUTHORIZATION))) {
            return;
        }
        if (!isBearer(authorization)) {
            throw unauthorized(ctx, CHALLENGE, "Authorization scheme must be Bearer");
        }
        String token = authorization.substring(SCHEME.length()).strip();
        if (token.isEmpty()) {
            throw unauthorized(ctx, CHALLENGE, "bearer token is missing");
        }
        if (!(verifier.verify(token) instanceof Verification.Valid)) {
            limiter.ifPresent(l -> l.recordFailure(address));
            throw unauthorized(ctx, INVALID_TOKEN_CHALLENGE, "bearer token is not valid");
        }
    }

    /**
     * Whether {@code request} carries a bearer token the verifier accepts: what {@link #handle} admits, bar the
     * refused-token limit. A request it admits is marked so that {@link #handle} does not verify its token again.
     */
    static boolean admitsAndRemembers(TokenVerifier verifier, Request request) {
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (authorization == null || !isBearer(authorization)) {
            return false;
        }
        String token = authorization.substring(SCHEME.length()).strip();
        if (token.isEmpty() || !(verifier.verify(token) instanceof Verification.Valid)) {
            return false;
        }
        request.setAttribute(VERIFIED_AUTHORIZATION, authorization);
        return true;
    }

    /** The scheme name is case-insensitive (RFC 9110 section 11.1); one or more spaces follow it. */
    private static boolean isBearer(String authorization) {
        return authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && (authorization.length() == SCHEME.length() || authorization.charAt(SCHEME.length()) == ' ');
    }

    private static ApiProblem unauthorized(Context ctx, String challenge, String message) {
        ctx.header("WWW-Authenticate", challenge);
        return new ApiProblem(401, message);
    }
}
