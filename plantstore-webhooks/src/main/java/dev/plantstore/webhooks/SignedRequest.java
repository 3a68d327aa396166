package dev.plantstore.webhooks;

import dev.plantstore.core.TraceContext;
import java.util.Optional;

/**
 * One attempt's request from its headers on, as Standard Webhooks has it: signed anew each time, as it is now; with
 * the W3C trace context it carries, when there is one.
 */
record SignedRequest(String id, long timestampSeconds, String signature, byte[] body, Optional<TraceContext> trace) {
}
