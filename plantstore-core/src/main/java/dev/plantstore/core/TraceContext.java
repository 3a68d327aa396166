package dev.plantstore.core;

import java.util.Optional;

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

    private static final int TRACEPARENT_LENGTH = 55;
    /** The limit W3C sets for what a vendor must propagate. */
    static final int MAX_TRACESTATE_LENGTH = 512;

    /**
     * Refuses what could not be sent back as a header: only well-formed text is ever stored.
     *
     * @throws IllegalArgumentException when {@code traceparent} is not of version 00, or {@code tracestate} is longer
     *                                  than 512 characters or holds a character other than printable ASCII
     */
    public TraceContext {
        if (traceparent == null || !isVersion00(traceparent)) {
            throw new IllegalArgumentException("not a version-00 traceparent");
        }
        if (tracestate.isPresent() && !isHeaderText(tracestate.get())) {
            throw new IllegalArgumentException("a tracestate must be at most " + MAX_TRACESTATE_LENGTH
                    + " printable ASCII characters");
        }
    }

    /** {@code 00-}32 hex{@code -}16 hex{@code -}2 hex, lowercase; by hand, as every traced write checks one. */
    private static boolean isVersion00(String traceparent) {
        if (traceparent.length() != TRACEPARENT_LENGTH || !traceparent.startsWith("00-")) {
            return false;
        }
        for (int i = 3; i < TRACEPARENT_LENGTH; i++) {
            char c = traceparent.charAt(i);
            boolean dash = i == 35 || i == 52;
            if (dash ? c != '-' : !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
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
