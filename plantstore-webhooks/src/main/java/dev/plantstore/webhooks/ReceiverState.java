package dev.plantstore.webhooks;

/** Where a receiver's worker stands, which decides where its events come from and how many go at once. */
enum ReceiverState {
    /**
     * The receiver answers and the worker keeps up: the events this process records are handed to it in memory and
     * sent at once, up to the requests in flight; events recorded elsewhere or due again are claimed from the outbox.
     */
    KEEPING_UP,
    /**
     * The worker fell behind what this process records: every event goes through the outbox, oldest first, until a
     * claim finds no more than it can send and nothing waits in memory.
     */
    CATCHING_UP,
    /**
     * Every attempt of the last round failed: one event at a time, each after the back-off, until one is delivered.
     */
    FAILING
}
