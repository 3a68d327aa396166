package dev.plantstore.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@link WebhookSink} took since its last reset: every request, and for each event's first arrival (by
 * {@code webhook-id}, since delivery is at least once) its arrival time and its lag behind the write. Kept
 * in arrays so that a million events cost 16 MB, and the drain's rate at its start and its end can be read off the
 * arrival order.
 */
final class ReceivedEvents {

    private final Set<String> seenIds = ConcurrentHashMap.newKeySet();
    private long accepted;
    private long rejected;
    private int unique;
    private long[] arrivalMicros = new long[1 << 16];
    private long[] lagMillis = new long[1 << 16];

    /** A 2xx answer; the event counts as delivered on its first arrival only. */
    synchronized void accept(String webhookId, long arrivalEpochMicros, long lagMillisBehindCommit) {
        accepted++;
        if (!seenIds.add(webhookId)) {
            return;
        }
        if (unique == arrivalMicros.length) {
            arrivalMicros = Arrays.copyOf(arrivalMicros, unique * 2);
            lagMillis = Arrays.copyOf(lagMillis, unique * 2);
        }
        arrivalMicros[unique] = arrivalEpochMicros;
        lagMillis[unique] = lagMillisBehindCommit;
        unique++;
    }

    /** A request answered with an error status on purpose: the event stays pending at the sender. */
    synchronized void reject() {
        rejected++;
    }

    synchronized void reset() {
        seenIds.clear();
        accepted = 0;
        rejected = 0;
        unique = 0;
    }

    /** The figures so far; {@code part} events at the start and at the end of the arrivals give the two rates. */
    synchronized Stats stats(int part) {
        long[] lags = Arrays.copyOf(lagMillis, unique);
        Arrays.sort(lags);
        int span = Math.min(part, unique);
        return new Stats(accepted, unique, rejected, percentile(lags, 50), percentile(lags, 99),
                unique == 0 ? null : lags[unique - 1],
                unique == 0 ? null : arrivalMicros[0], unique == 0 ? null : arrivalMicros[unique - 1], span,
                perSecond(0, span), perSecond(unique - span, span));
    }

    /** Nearest rank: the smallest value with at least {@code percent} % of the values at or below it. */
    private static Long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return null;
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    /** Events a second over {@code count} consecutive arrivals from {@code from}: intervals over their span. */
    private Double perSecond(int from, int count) {
        if (count < 2) {
            return null;
        }
        long micros = arrivalMicros[from + count - 1] - arrivalMicros[from];
        return micros == 0 ? null : (count - 1) * 1_000_000.0 / micros;
    }

    /** Absent figures (no event yet) are {@code null}, and written so in JSON. */
    record Stats(long accepted, long unique, long rejected, Long lagP50Millis, Long lagP99Millis, Long lagMaxMillis,
                 Long firstArrivalMicros, Long lastArrivalMicros, int part, Double firstPartPerSecond,
                 Double lastPartPerSecond) {

        String toJson() {
            return String.format(Locale.ROOT, "{\"accepted\":%d,\"unique\":%d,\"rejected\":%d,\"lagP50Millis\":%s,"
                            + "\"lagP99Millis\":%s,\"lagMaxMillis\":%s,\"firstArrivalMicros\":%s,"
                            + "\"lastArrivalMicros\":%s,\"part\":%d,\"firstPartPerSecond\":%s,"
                            + "\"lastPartPerSecond\":%s}",
                    accepted, unique, rejected, lagP50Millis, lagP99Millis, lagMaxMillis, firstArrivalMicros,
                    lastArrivalMicros, part, rate(firstPartPerSecond), rate(lastPartPerSecond));
        }

        private static String rate(Double perSecond) {
            return perSecond == null ? "null" : String.format(Locale.ROOT, "%.1f", perSecond);
        }
    }
}
