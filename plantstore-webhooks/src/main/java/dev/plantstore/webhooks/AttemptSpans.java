package dev.plantstore.webhooks;

import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.PlantEvent;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each attempt as a client span in the trace of the write its event reports, continued from the trace context the
 * outbox kept with the event, however much later, or by whichever process, the attempt happens; and the context the
 * attempt's request carries, so that the receiver continues the same trace. The headers are always W3C's, whatever
 * propagators the application configured: they are what a receiver is told to read.
 *
 * <p>Without a tracing SDK the spans cost nothing and record nothing, and a request still carries the write's own
 * context when the write had one.
 */
final class AttemptSpans {

    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";
    static final String INSTRUMENTATION = "dev.plantstore.webhooks";

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static final TextMapGetter<TraceContext> STORED = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext carrier) {
            return carrier.tracestate().isPresent() ? List.of(TRACEPARENT, TRACESTATE) : List.of(TRACEPARENT);
        }

        @Override
        public String get(TraceContext carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return TRACEPARENT.equals(key) ? carrier.traceparent()
                    : TRACESTATE.equals(key) ? carrier.tracestate().orElse(null) : null;
        }
    };

    private final Tracer tracer;
    private final String receiver;
    private final String host;
    private final long port;

    /** Spans for the attempts to {@code receiver}, named in them by {@code key}, as the logs name it. */
    AttemptSpans(OpenTelemetry openTelemetry, URI receiver, String key) {
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
        this.receiver = key;
        this.host = receiver.getHost();
        this.port = receiver.getPort() >= 0 ? receiver.getPort() : "https".equals(receiver.getScheme()) ? 443 : 80;
    }

    /** One attempt under way: its span, and the trace context its request carries, if any. */
    record Attempt(Span span, Optional<TraceContext> sent) {
    }

    /** Begins the span of {@code event}'s next attempt. */
    Attempt begin(PlantEvent event) {
        Context write = event.trace().map(trace -> W3C.extract(Context.root(), trace, STORED)).orElse(Context.root());
        int attempt = event.attempts() + 1;
        Span span = tracer.spanBuilder("POST").setParent(write).setSpanKind(SpanKind.CLIENT).startSpan();
        // Set once sampled rather than on the builder, which collects them for every attempt, recorded or not.
        if (span.isRecording()) {
            span.setAttribute("http.request.method", "POST");
            span.setAttribute("url.full", receiver);
            span.setAttribute("server.address", host);
            span.setAttribute("server.port", port);
            span.setAttribute("http.request.resend_count", (long) attempt - 1);
            span.setAttribute("plantstore.webhook.receiver", receiver);
            span.setAttribute("plantstore.webhook.attempt", (long) attempt);
            span.setAttribute("plantstore.webhook.id", event.messageId());
            span.setAttribute("plantstore.webhook.event", event.type());
        }
        return new Attempt(span, contextOf(write.with(span)));
    }

    /** Ends the attempt's span with how it went. */
    static void end(Span span, Transport.Outcome outcome) {
        if (outcome instanceof Transport.Outcome.Answered answered) {
            span.setAttribute("http.response.status_code", (long) answered.status());
            if (answered.status() < 200 || answered.status() >= 300) {
                span.setAttribute("error.type", Integer.toString(answered.status()));
                span.setStatus(StatusCode.ERROR);
            }
        } else if (outcome instanceof Transport.Outcome.Failed failed) {
            span.setAttribute("error.type", "no_answer");
            span.setStatus(StatusCode.ERROR, failed.reason());
        }
        span.end();
    }

    private static Optional<TraceContext> contextOf(Context context) {
        Map<String, String> headers = new HashMap<>();
        W3C.inject(context, headers, Map::put);
        String traceparent = headers.get(TRACEPARENT);
        if (traceparent == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TraceContext(traceparent, Optional.ofNullable(headers.get(TRACESTATE))));
        } catch (IllegalArgumentException notOfVersion00) {
            return Optional.empty();
        }
    }
}
