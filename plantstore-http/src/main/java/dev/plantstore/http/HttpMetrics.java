package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.RequestLogger;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jetty.JettyConnectionMetrics;
import io.micrometer.core.instrument.binder.jetty.JettyServerThreadPoolMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;

/**
 * Counts and times every request the application routes, by method, route template and status
 * ({@value #REQUESTS}), counts the requests refused before any work was done, by reason ({@value #REFUSED}), and the
 * bearer tokens refused once read, by why ({@value #TOKENS_REFUSED}); on a TLS port, the handshakes refused for the
 * client's certificate ({@link ClientCertificateRefusals}). Runs as a Javalin request logger, after the
 * response is written.
 */
final class HttpMetrics implements RequestLogger {

    static final String REQUESTS = "http.server.requests";
    static final String REFUSED = "plantstore.requests.refused";
    static final String TOKENS_REFUSED = "plantstore.tokens.refused";

    static final String OTHER_METHOD = "OTHER";

    /** RFC 9110's methods and PATCH (RFC 5789); a label takes no other. */
    private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH");

    /**
     * Bucket bounds a latency objective can be read from: an API answering in under a millisecond when well, the
     * 5 s bound of a store operation and the 10 s of a stop when not.
     */
    static final Duration[] LATENCY_BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private static final Map<Integer, String> REFUSAL_REASONS = Map.of(
            400, "bad_request",
            401, "unauthorized",
            413, "body_too_large",
            415, "unsupported_media_type",
            429, "too_many_refused_tokens");

    private record Series(String method, String route, int status) {
    }

    private final MeterRegistry registry;
    private final ConcurrentMap<Series, Timer> timers = new ConcurrentHashMap<>();
    private final Map<Integer, Counter> refusals;
    private final Map<Exchange.TokenRefusal, Counter> tokenRefusals;

    /**
     * Records the requests {@code config}'s application answers, and its Jetty server's connections and thread pool,
     * in {@code registry}.
     */
    static void bind(JavalinConfig config, MeterRegistry registry) {
        config.requestLogger.http(new HttpMetrics(registry));
        // Javalin adds its connector after the server consumers run and fires this event before starting Jetty.
        var server = new AtomicReference<Server>();
        config.jetty.modifyServer(server::set);
        config.events.serverStarting(() -> {
            JettyConnectionMetrics.addToAllConnectors(server.get(), registry);
            for (Connector connector : server.get().getConnectors()) {
                connector.getBeans(ClientCertificateRefusals.class).forEach(refusals -> refusals.countIn(registry));
            }
            new JettyServerThreadPoolMetrics(server.get().getThreadPool(), List.of()).bindTo(registry);
        });
    }

    private HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.refusals = Map.copyOf(REFUSAL_REASONS.entrySet().stream().collect(Collectors.toMap(
                Map.Entry::getKey,
                reason -> Counter.builder(REFUSED)
                        .description("Requests refused before any work: bad input, no or a wrong token, too large a "
                                + "body, a content type other than JSON, too many refused tokens")
                        .tag("reason", reason.getValue())
                        .register(registry))));
        this.tokenRefusals = Exchange.TokenRefusal.all().stream().collect(Collectors.toUnmodifiableMap(
                reason -> reason,
                reason -> Counter.builder(TOKENS_REFUSED)
                        .description("Bearer tokens refused once read: not valid (the reason the verifier gives), "
                                + "without the operation's scope, or not checkable because the identity provider's "
                                + "keys could not be had")
                        .tag("reason", reason.label())
                        .register(registry)));
    }

    @Override
    public void handle(Context ctx, Float millis) {
        int status = ctx.statusCode();
        timers.computeIfAbsent(new Series(method(ctx), Exchange.routeTemplate(ctx), status), this::timer)
                .record(Math.round(millis * 1_000_000.0), TimeUnit.NANOSECONDS);
        Counter refused = refusals.get(status);
        if (refused != null) {
            refused.increment();
        }
        Exchange.existing(ctx).flatMap(Exchange::tokenRefusal)
                .ifPresent(reason -> tokenRefusals.get(reason).increment());
    }

    /**
     * The request line's method when it is one of HTTP's own, else {@value #OTHER_METHOD}: a client may send any token
     * as a method, and each would be a series of its own.
     */
    static String method(Context ctx) {
        String method = ctx.req().getMethod();
        return KNOWN_METHODS.contains(method) ? method : OTHER_METHOD;
    }

    private Timer timer(Series series) {
        return Timer.builder(REQUESTS)
                .description("Requests answered, by method, route template and status")
                .tag("method", series.method())
                .tag("route", series.route())
                .tag("status", Integer.toString(series.status()))
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry);
    }
}
