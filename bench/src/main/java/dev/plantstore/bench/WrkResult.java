package dev.plantstore.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * What one wrk run reports through {@code plants.lua}'s {@code done}: the line that starts with {@code BENCH }.
 * {@code sent} is how many requests each wrk thread made, comma-separated; a delete run takes a create run's to
 * delete exactly the ids it created.
 */
record WrkResult(long requests, long durationMicros, long p50Micros, long p99Micros, long maxMicros, long non2xx,
                 long connectErrors, long readErrors, long writeErrors, long timeouts, String sent) {

    private static final String PREFIX = "BENCH ";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES);

    /** The result in wrk's output, if the script printed one. */
    static Optional<WrkResult> parse(String wrkOutput) {
        for (String line : wrkOutput.split("\n")) {
            if (line.startsWith(PREFIX)) {
                try {
                    return Optional.of(JSON.readValue(line.substring(PREFIX.length()), WrkResult.class));
                } catch (java.io.IOException e) {
                    throw new IllegalArgumentException("unreadable result line: " + line, e);
                }
            }
        }
        return Optional.empty();
    }

    /** Whether some wrk thread of this delete run reached the last id its twin in {@code created} made. */
    boolean ranOutOf(WrkResult created) {
        String[] deleted = sent.split(",");
        String[] made = created.sent().split(",");
        for (int i = 0; i < deleted.length; i++) {
            if (Long.parseLong(deleted[i]) >= Long.parseLong(made[i])) {
                return true;
            }
        }
        return false;
    }

    double requestsPerSecond() {
        return requests * 1_000_000.0 / durationMicros;
    }

    /** Requests that did not get a 2xx, or never got an answer. */
    long failures() {
        return non2xx + connectErrors + readErrors + writeErrors + timeouts;
    }
}
