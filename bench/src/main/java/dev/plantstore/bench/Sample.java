package dev.plantstore.bench;

/**
 * One wrk run: which server, which operation, how many connections, which of the repeated runs. {@code ranOutOfIds}
 * marks a delete run that deleted everything its create run made before its time was up: its rate is then a lower
 * bound, because wrk divides by the whole duration.
 */
record Sample(String target, String operation, int connections, int run, WrkResult result, boolean ranOutOfIds) {
}
