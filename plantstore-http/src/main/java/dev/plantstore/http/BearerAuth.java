package dev.plantstore.http;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import dev.plantstore.http.Exchange.Admitted;
import dev.plantstore.http.Exchange.Decision;
import dev.plantstore.http.Exchange.Refused;
import dev.plantstore.http.Exchange.TokenRefusal;
import dev.plantstore.http.Operations.Operation;
import dev.plantstore.http.Operations.Permission;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.slf4j.MDC;

/**
 * The before-handler that admits a request only with a valid bearer token (RFC 6750) granting its operation's scope
 * (else 403 {@code insufficient_scope}), on the routes that need one. A request's credentials are judged once, by
 * whoever asks first (the body reader, the span, this handler), and kept on its {@link Exchange}: a refused token
 * counts once against its client (its address, or the one a trusted proxy names, {@link ClientAddresses}; IPv6 by
 * its /64), and a limited client is refused before its token is looked at. A token that cannot be checked now is 503
 * with {@code Retry-After}, not counted. The token is never logged; an admitted principal goes into the MDC under
 * {@value LogFields#PRINCIPAL} and onto the access line.
 */
final class BearerAuth implements Handler {

    static final String CHALLENGE = "Bearer realm=\"plantstore\"";
    static final String INVALID_TOKEN_CHALLENGE = CHALLENGE + ", error=\"invalid_token\"";

    private static final String SCHEME = "Bearer";

    /** The scope each operation needs: creating plants, deleting them. */
    record Scopes(String create, String delete) {
        Scopes {
            requireScopeToken(create);
            requireScopeToken(delete);
        }

        /** RFC 6749 section 3.3: a scope token is printable ASCII without space, quote or backslash. */
        static void requireScopeToken(String scope) {
            if (scope == null || scope.isEmpty() || !scope.chars().allMatch(c -> c == 0x21 || c >= 0x23 && c <= 0x5b
                    || c >= 0x5d && c <= 0x7e)) {
                throw new IllegalArgumentException("a scope is printable ASCII without space, quote or backslash: "
                        + scope);
            }
        }

        String grantedBy(Permission permission) {
            return switch (permission) {
                case CREATE -> create;
                case DELETE -> delete;
            };
        }
    }

    private final TokenVerifier verifier;
    private final Optional<AuthFailureLimiter> limiter;
    private final Scopes scopes;
    private final ClientAddresses clients;
    private final Operations operations;

    /**
     * {@code clients} says whom a request's refused token counts against; {@code operations} which permission a
     * request needs.
     */
    BearerAuth(TokenVerifier verifier, Optional<AuthFailureLimiter> limiter, Scopes scopes, ClientAddresses clients,
            Operations operations) {
        this.verifier = verifier;
        this.limiter = limiter;
        this.scopes = scopes;
        this.clients = clients;
        this.operations = operations;
    }

    @Override
    public void handle(Context ctx) {
        Exchange exchange = Exchange.of(ctx);
        Decision decision = decisionFor(exchange);
        exchange.enforced();
        if (decision instanceof Admitted admitted) {
            // Removed with the request id, when the request is over.
            MDC.put(LogFields.PRINCIPAL, admitted.verification().principal());
            return;
        }
        var refused = (Refused) decision;
        refused.headers().forEach(ctx::header);
        throw refused.problem();
    }

    /** The decision for the request of {@code exchange}, made now if no one has made it yet. */
    Decision decisionFor(Exchange exchange) {
        Optional<Decision> made = exchange.decision();
        if (made.isPresent()) {
            return made.get();
        }
        Request request = exchange.request();
        Decision decision = decide(request.getHeaders().getValuesList(HttpHeader.AUTHORIZATION),
                exchange.client(clients).limiterKey(), operations.of(request));
        exchange.decided(decision);
        return decision;
    }

    /**
     * The one place credentials are judged: the limit first, then the header, then the token, then its scope. A
     * request that is no operation is admitted to be told 405 by its route; an operation that declares no permission
     * is refused, whatever the token.
     */
    private Decision decide(List<String> authorizations, String address, Optional<Operation> operation) {
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
        Verification verification = verifier.verify(token);
        if (verification instanceof Verification.Unavailable unavailable) {
            long seconds = Math.max(1, unavailable.retryAfter().toSeconds());
            return new Refused(503, "the bearer token cannot be checked now; retry after " + seconds + " s",
                    Map.of("Retry-After", Long.toString(seconds)), Optional.of(TokenRefusal.KEYS_UNAVAILABLE));
        }
        if (verification instanceof Verification.Invalid invalid) {
            limiter.ifPresent(l -> l.recordFailure(address));
            return new Refused(401, "bearer token is not valid", Map.of("WWW-Authenticate", INVALID_TOKEN_CHALLENGE),
                    Optional.of(TokenRefusal.invalid(invalid.reason())));
        }
        Verification.Valid valid = (Verification.Valid) verification;
        if (operation.isEmpty()) {
            return new Admitted(valid);
        }
        Optional<Permission> permission = operation.get().permission();
        if (permission.isEmpty()) {
            return new Refused(403, "no token is allowed this operation: it declares no permission",
                    Map.of("WWW-Authenticate", CHALLENGE + ", error=\"insufficient_scope\""),
                    Optional.of(TokenRefusal.INSUFFICIENT_SCOPE));
        }
        String required = scopes.grantedBy(permission.get());
        if (!valid.grants(required)) {
            return new Refused(403, "the bearer token does not grant scope " + required,
                    Map.of("WWW-Authenticate", CHALLENGE + ", error=\"insufficient_scope\", scope=\""
                            + required + "\""), Optional.of(TokenRefusal.INSUFFICIENT_SCOPE));
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
