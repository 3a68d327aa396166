package dev.plantstore.bench;

/** One wrk run: which server, which operation, how many connections, which of the repeated runs. */
record Sample(String target, String operation, int connections, int run, WrkResult result) {
}
