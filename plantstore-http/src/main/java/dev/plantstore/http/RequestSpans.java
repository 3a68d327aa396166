package dev.plantstore.http;

import io.javalin.http.Context;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.MDC;

/**
 * A server span per request. A create or delete whose credentials are admitted continues the caller's trace as the
 * application's propagators read it (W3C {@code traceparent} and {@code tracestate} by default; the propagator ignores
 * a malformed one, and the request starts a new trace). Any other request starts a trace of its own, whatever it
 * sends: the caller's sampled flag would otherwise decide what is exported, and its trace state would go with the
 * write to the store and on to the webhooks' receivers. The span is current, and its ids are in the MDC, for
 * everything inside; it ends once the response is complete, with its status. A Jetty handler inside the one that
 * reads a create's body ahead, so that the span is current on the thread that goes on to serve the request.
 */
final class RequestSpans extends Handler.Wrapper {

    static final String INSTRUMENTATION = "dev.plantstore.http";

    // Made once: a key made per call is an allocation and a hash on every traced request.
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> SCHEME = AttributeKey.stringKey("url.scheme");
    private static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    private static final AttributeKey<String> PRINCIPAL = AttributeKey.stringKey("enduser.id");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

    private static final TextMapGetter<Request> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Request request) {
            return request.getHeaders().stream().map(HttpField::getName).toList();
        }

        @Override
        public String get(Request request, String key) {
            return request == null ? null : request.getHeaders().get(key);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final boolean healthTraced;
    private final Predicate<Request> admittedWrite;

    /**
     * {@code healthTraced}: whether the {@link Health} routes' requests get a span too; {@code admittedWrite}: whether
     * a request is a create or delete whose credentials are admitted, the one kind whose caller's trace it continues.
     */
    RequestSpans(OpenTelemetry openTelemetry, boolean healthTraced, Predicate<Request> admittedWrite) {
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
        this.healthTraced = healthTraced;
        this.admittedWrite = admittedWrite;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!healthTraced && Health.isProbe(Request.getPathInContext(request))) {
            // A load balancer probes every second or so: a trace per probe would bury the requests worth seeing.
            return super.handle(request, response, callback);
        }
        io.opentelemetry.context.Context root = io.opentelemetry.context.Context.root();
        Span span = tracer.spanBuilder(request.getMethod())
                .setParent(admittedWrite.test(request) ? propagator.extract(root, request, HEADERS) : root)
                .setSpanKind(SpanKind.SERVER)
                .startSpan();
        // Set once sampled rather than on the builder, which collects them for every request, recorded or not.
        if (span.isRecording()) {
            span.setAttribute(METHOD, request.getMethod());
            span.setAttribute(SCHEME, request.getHttpURI().getScheme());
        }
        Exchange.of(request).traced(span);
        SpanContext ids = span.getSpanContext();
        MDC.put(LogFields.TRACE_ID, ids.getTraceId());
        MDC.put(LogFields.SPAN_ID, ids.getSpanId());
        Scope current = span.makeCurrent();
        try {
            boolean handled = super.handle(request, response, new Ending(callback, span, response));
            if (!handled) {
                span.end();
            }
            return handled;
        } catch (Exception | Error e) {
            span.setStatus(StatusCode.ERROR);
            span.end();
            throw e;
        } finally {
            current.close();
            MDC.remove(LogFields.TRACE_ID);
            MDC.remove(LogFields.SPAN_ID);
        }
    }

    /**
     * Names the request's span by the route that served it, and adds its caller: Javalin knows both only once it has
     * routed the request. Run as a request logger, after the handlers, before the response completes.
     */
    static void nameByRoute(Context ctx) {
        Exchange.existing(ctx).ifPresent(exchange -> exchange.span().filter(Span::isRecording).ifPresent(span -> {
            String route = Exchange.routeTemplate(ctx);
            span.updateName(ctx.method().name() + " " + route);
            span.setAttribute(ROUTE, route);
            exchange.caller().ifPresent(caller -> span.setAttribute(PRINCIPAL, caller.principal()));
        }));
    }

    /** Ends the span with the response's status once the exchange is over, then completes it. */
    private record Ending(Callback callback, Span span, Response response) implements Callback {
        @Override
        public void succeeded() {
            end();
            callback.succeeded();
        }

        @Override
        public void failed(Throwable failure) {
            span.setStatus(StatusCode.ERROR);
            end();
            callback.failed(failure);
        }

        private void end() {
            if (span.isRecording()) {
                int status = response.getStatus();
                span.setAttribute(STATUS, (long) status);
                if (status >= 500) {
                    span.setStatus(StatusCode.ERROR);
                }
            }
            span.end();
        }

        @Override
        public InvocationType getInvocationType() {
            return callback.getInvocationType();
        }
    }
}
