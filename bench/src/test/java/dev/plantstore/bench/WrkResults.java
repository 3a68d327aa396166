package dev.plantstore.bench;

/** Results of wrk runs for the tests of what is computed from them. */
final class WrkResults {

    private WrkResults() {
    }

    /** A run of one second that completed {@code requests} requests, with fixed latencies and no errors. */
    static WrkResult perSecond(long requests) {
        return new WrkResult(requests, 1_000_000, 1000, 5000, 9000, 0, 0, 0, 0, 0, "1,1");
    }
}
