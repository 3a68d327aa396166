package dev.plantstore.http;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.forwarding.ForwardingPlantStore;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Each create and delete as a span under the request's: the wait for its group commit and the commit itself, as this
 * request lived them. One commit serves many requests, so a span per request, in each request's own trace, shows every
 * caller its wait; a span per batch would sit in one trace, or in none, and be reached by links that most viewers show
 * poorly. The write's trace context, this span's, goes to the store with the write, which keeps it with the webhook
 * events it records, so that their deliveries show under this span. The outcome, as the metrics label it, goes on this
 * span and the request's.
 */
final class TracedPlantStore extends ForwardingPlantStore {

    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("plantstore.outcome");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("plantstore.operation");
    private static final AttributeKey<Long> PLANT_ID = AttributeKey.longKey("plantstore.plant.id");

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private final Tracer tracer;

    TracedPlantStore(PlantStore store, OpenTelemetry openTelemetry) {
        super(store);
        this.tracer = openTelemetry.getTracer(RequestSpans.INSTRUMENTATION);
    }

    @Override
    protected CreateResult create(NewPlant plant, Optional<TraceContext> given) {
        return traced("create", plant.id(), given, trace -> forward(plant, trace), StoreOutcome::of);
    }

    @Override
    protected boolean delete(long id, Optional<TraceContext> given) {
        return traced("delete", id, given, trace -> forward(id, trace), StoreOutcome::ofDelete);
    }

    /**
     * {@code given}: the context the write came with, which it keeps when no span is current (a caller of the store
     * outside a request).
     */
    private <T> T traced(String operation, long id, Optional<TraceContext> given,
                         Function<Optional<TraceContext>, T> write, Function<T, StoreOutcome> outcome) {
        Span request = Span.current();
        if (!request.isRecording()) {
            // Not sampled: a span for the write would record nothing. The write keeps the request's own context,
            // unsampled, which the webhook's receiver may still continue.
            return write.apply(contextOf(request.getSpanContext()).or(() -> given));
        }
        Span span = tracer.spanBuilder("store " + operation).startSpan();
        span.setAttribute(OPERATION, operation);
        span.setAttribute(PLANT_ID, id);
        Scope current = span.makeCurrent();
        try {
            T result = write.apply(contextOf(span.getSpanContext()));
            note(request, span, outcome.apply(result));
            return result;
        } catch (StoreUnavailableException e) {
            note(request, span, StoreOutcome.UNAVAILABLE);
            span.setStatus(StatusCode.ERROR, "store unavailable");
            throw e;
        } catch (RuntimeException | Error e) {
            note(request, span, StoreOutcome.FAILED);
            span.setStatus(StatusCode.ERROR);
            throw e;
        } finally {
            current.close();
            span.end();
        }
    }

    private static void note(Span request, Span span, StoreOutcome outcome) {
        span.setAttribute(OUTCOME, outcome.label);
        request.setAttribute(OUTCOME, outcome.label);
    }

    /**
     * The span's context as W3C's headers carry it, sampled or not; empty for none (an invalid context). Written out
     * directly, as every traced write needs it; only a trace state, which few callers send, goes through the
     * propagator.
     */
    private static Optional<TraceContext> contextOf(SpanContext span) {
        if (!span.isValid()) {
            return Optional.empty();
        }
        String traceparent = "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
        Optional<String> tracestate = Optional.empty();
        if (!span.getTraceState().isEmpty()) {
            Map<String, String> headers = new HashMap<>();
            W3C.inject(Context.root().with(Span.wrap(span)), headers, Map::put);
            tracestate = Optional.ofNullable(headers.get("tracestate"));
        }
        try {
            return Optional.of(new TraceContext(traceparent, tracestate));
        } catch (IllegalArgumentException longerThanKept) {
            return Optional.of(new TraceContext(traceparent, Optional.empty()));
        }
    }
}
