package dev.plantstore.core;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The W3C trace context of a write, as text: kept with the webhook events the write records, so that their delivery
 * joins the write's trace however much later, and by whichever process, it happens. The store only keeps it; making
 * and continuing traces is the HTTP layer's and the delivery's.
 *
 * @param traceparent the {@code traceparent} header's value, version {@code 00}: {@code 00-}trace id{@code -}parent
 *                    id{@code -}flags, in lowercase hex
 * @param tracestate  the {@code tracestate} header's value, when there is one
 */
public record TraceContext(String traceparent, Optional<String> tracestate) {

    private static final Pattern TRACEPARENT = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    /** The limit W3C sets for what a vendor must propagate. */
    static final int MAX_TRACESTATE_LENGTH = 512;

    /**
     * Refuses what could not be sent back as a header: only well-formed text is ever stored.
     *
     * @throws IllegalArgumentException when {@code traceparent} is not of version 00, or {@code tracestate} is longer
     *                                  than 512 characters or holds a character other than printable ASCII
     */
    public TraceContext {
        if (traceparent == null || !TRACEPARENT.matcher(traceparent).matches()) {
            throw new IllegalArgumentException("not a version-00 traceparent");
        }
        if (tracestate.isPresent() && !isHeaderText(tracestate.get())) {
            throw new IllegalArgumentException("a tracestate must be at most " + MAX_TRACESTATE_LENGTH
                    + " printable ASCII characters");
        }
    }

    private static boolean isHeaderText(String value) {
        if (value.length() > MAX_TRACESTATE_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
