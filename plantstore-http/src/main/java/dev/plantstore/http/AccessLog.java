package dev.plantstore.http;

import io.opentelemetry.api.trace.Span;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.NanoTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One access line per exchange: the client's address (the peer's, or the one a trusted proxy names: {@link
 * ClientAddresses}), method, raw path, status and time since the request began, then why it was refused when the
 * status alone does not say (a refused token's reason, a 503's cause); who was admitted (the token's principal) goes
 * in the MDC beside the request's id. Jetty's request log
 * rather than Javalin's request logger, because Jetty calls it for every exchange, including those it refuses before
 * any handler runs (a bad request line or URI, headers too large), and a request whose body is still arriving.
 * Built by hand rather than from a logger pattern: at tens of thousands of requests a second the pattern's formatting
 * was a tenth of the server's work.
 */
final class AccessLog implements RequestLog {

    /** The client's address, as the MDC names it for a JSON line. */

    private static final Logger ACCESS = LoggerFactory.getLogger("dev.plantstore.access");

    private final ClientAddresses clients;

    AccessLog(ClientAddresses clients) {
        this.clients = clients;
    }

    @Override
    public void log(Request request, Response response) {
        if (!ACCESS.isInfoEnabled()) {
            return;
        }
        long tenthsOfMillis = TimeUnit.NANOSECONDS.toMicros(NanoTime.since(request.getBeginNanoTime())) / 100;
        HttpURI uri = request.getHttpURI();
        Exchange exchange = Exchange.of(request);
        String client = exchange.client(clients).shown();
        var line = new StringBuilder(80).append(client).append(' ').append(request.getMethod()).append(' ')
                .append(uri == null ? "-" : uri.getPath()).append(' ')
                .append(response.getStatus()).append(' ')
                .append(tenthsOfMillis / 10).append('.').append(tenthsOfMillis % 10).append("ms");
        exchange.caller().ifPresent(caller -> MDC.put(LogFields.PRINCIPAL, caller.principal()));
        Optional<String> problem = exchange.tokenRefusal().map(refusal -> "token refused: " + refusal.label())
                .or(exchange::problem);
        problem.ifPresent(reason -> {
            line.append(" - ").append(reason);
            MDC.put(LogFields.PROBLEM, reason);
        });
        // Jetty logs once the exchange is over, outside the handlers that put the request's id in the MDC. The fields
        // go in the MDC too, for a backend that writes them apart (a JSON line).
        String requestId = response.getHeaders().get(RequestIds.HEADER);
        if (requestId != null) {
            MDC.put(LogFields.REQUEST_ID, requestId);
        }
        exchange.span().map(Span::getSpanContext).ifPresent(ids -> {
            MDC.put(LogFields.TRACE_ID, ids.getTraceId());
            MDC.put(LogFields.SPAN_ID, ids.getSpanId());
        });
        MDC.put(LogFields.CLIENT, client);
        MDC.put(LogFields.METHOD, request.getMethod());
        MDC.put(LogFields.ROUTE, exchange.route().orElse(Exchange.UNMATCHED_ROUTE));
        MDC.put(LogFields.STATUS, Integer.toString(response.getStatus()));
        MDC.put(LogFields.DURATION_MS, (tenthsOfMillis / 10) + "." + (tenthsOfMillis % 10));
        try {
            ACCESS.info(line.toString());
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.TRACE_ID);
            MDC.remove(LogFields.SPAN_ID);
            MDC.remove(LogFields.CLIENT);
            MDC.remove(LogFields.METHOD);
            MDC.remove(LogFields.ROUTE);
            MDC.remove(LogFields.STATUS);
            MDC.remove(LogFields.DURATION_MS);
            MDC.remove(LogFields.PROBLEM);
            MDC.remove(LogFields.PRINCIPAL);
        }
    }
}
