package dev.plantstore.http;

import dev.plantstore.core.Verification;
import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.opentelemetry.api.trace.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.server.Request;

/**
 * What the server learns about one request on its way, kept on the request under one attribute: Jetty's handlers and
 * Javalin's see the same request, so this is how the steps a request passes hand each other what they found. Each
 * part is found once, by whichever step needs it first, and read by those after it: the client ({@link
 * ClientAddresses}), the credentials' {@link Decision}, the server span, the route
 * template Javalin matched, and why a request was refused when its status alone does not say. Only the server sets
 * request attributes; a client cannot. A request is served by one thread at a time, which Jetty hands on with a
 * happens-before, so the fields need no locking.
 */
final class Exchange {

    /** The route of a request no route matched. */
    static final String UNMATCHED_ROUTE = "unmatched";

    private static final String ATTRIBUTE = Exchange.class.getName();

    private final Request request;
    private ClientAddresses.Client client;
    private Decision decision;
    /** Whether the gate on the API's paths has answered by the decision: until then the request has no caller. */
    private boolean enforced;
    private Span span;
    private String route;
    private String problem;

    private Exchange(Request request) {
        this.request = request;
    }

    /** The exchange of {@code request}, begun now if no step has begun it yet. */
    static Exchange of(Request request) {
        if (request.getAttribute(ATTRIBUTE) instanceof Exchange found) {
            return found;
        }
        var exchange = new Exchange(request);
        request.setAttribute(ATTRIBUTE, exchange);
        return exchange;
    }

    /** The same exchange, seen from a Javalin handler. */
    static Exchange of(Context ctx) {
        return ctx.req().getAttribute(ATTRIBUTE) instanceof Exchange found
                ? found
                : of(ServletContextRequest.getServletContextRequest(ctx.req()));
    }

    /**
     * The exchange of the request {@code ctx} serves, if a step has begun one: for a step that only reads what others
     * found, so that a request no step needed anything of gets no exchange.
     */
    static Optional<Exchange> existing(Context ctx) {
        return ctx.req().getAttribute(ATTRIBUTE) instanceof Exchange found ? Optional.of(found) : Optional.empty();
    }

    /** The request as Jetty holds it, whichever layer asks. */
    Request request() {
        return request;
    }

    ClientAddresses.Client client(ClientAddresses clients) {
        if (client == null) {
            client = clients.of(request);
        }
        return client;
    }

    /** The credentials' decision, empty until the API's authentication has been asked. */
    Optional<Decision> decision() {
        return Optional.ofNullable(decision);
    }

    void decided(Decision decision) {
        this.decision = decision;
    }

    /**
     * The gate has let the request in, or refused it, by its decision. A decision made early (to read a create's body
     * ahead, to continue a trace) counts only from here: a request refused before the gate for another reason (a
     * method override) has no caller and no refused token on its access line.
     */
    void enforced() {
        enforced = true;
    }

    /** Who the request was admitted as, once the gate let it in. */
    Optional<Verification.Valid> caller() {
        return enforced && decision instanceof Admitted admitted ? Optional.of(admitted.verification())
                : Optional.empty();
    }

    /** Why its token was refused, once the gate refused it for that. */
    Optional<TokenRefusal> tokenRefusal() {
        return enforced && decision instanceof Refused refused ? refused.tokenRefusal()
                : Optional.empty();
    }

    /** The request's server span, empty when it is not traced. */
    Optional<Span> span() {
        return Optional.ofNullable(span);
    }

    void traced(Span span) {
        this.span = span;
    }

    /** The route template that served it, empty when Javalin routed nothing. */
    Optional<String> route() {
        return Optional.ofNullable(route);
    }

    void routed(String route) {
        this.route = route;
    }

    /**
     * The route template that served the request {@code ctx} serves, such as {@code /plants/{id}}: what the metrics,
     * the spans and the access line say instead of the raw path, which would give them one value per path a client
     * tries. Javalin names the matched route only once a before-handler lets the request through; one that stopped it
     * (a 401) is labelled with that handler's pattern, such as {@code /plants/*}, which is still a template.
     */
    static String routeTemplate(Context ctx) {
        Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
        if (endpoint != null) {
            return endpoint.path;
        }
        List<Endpoint> visited = ctx.endpoints().list();
        String last = visited.isEmpty() ? "*" : visited.get(visited.size() - 1).path;
        return last.equals("*") ? UNMATCHED_ROUTE : last;
    }

    /** Why it was refused when the status alone does not say (a 503's cause). */
    Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    void refusedBecause(String problem) {
        this.problem = problem;
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
