package dev.plantstore.http;

/**
 * The names of the fields the HTTP layer puts in the SLF4J MDC while a request is served, as a log pattern or a JSON
 * log reads them; the access line adds the last six. docs/operations.md#logs shows the lines.
 */
public final class LogFields {

    /** The request's id, as its {@code X-Request-Id} header carries it. */
    public static final String REQUEST_ID = "requestId";
    /** Who the request's token names, once it is admitted. */
    public static final String PRINCIPAL = "principal";
    /** The request's trace and span, when tracing is on. */
    public static final String TRACE_ID = "traceId";
    public static final String SPAN_ID = "spanId";
    /** The access line's client, method, route template, status, duration, and why it was refused, if it was. */
    public static final String CLIENT = "client";
    public static final String METHOD = "method";
    public static final String ROUTE = "route";
    public static final String STATUS = "status";
    public static final String DURATION_MS = "durationMs";
    public static final String PROBLEM = "problem";

    private LogFields() {
    }
}
