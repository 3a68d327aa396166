package dev.plantstore.core.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The queue of events waiting to be delivered, per receiver, as a store keeps them: a store records them together
 * with the writes they report; a delivery claims a batch, and settles each event claimed as delivered, rescheduled or
 * given up on. Those four verbs are the whole queue; beside them a store tells its delivery where it publishes its
 * commits and how long the queue is. Safe for concurrent use, and on PostgreSQL for use by several processes at once.
 */
public interface Outbox {

    /**
     * How long a claim keeps an event from other claims: longer than an attempt, which ends within its 10 s deadline,
     * and how long the events of an instance that died wait before another (or its restart) takes them over.
     */
    Duration LEASE = Duration.ofSeconds(30);

    /**
     * Claims up to {@code max} pending events of {@code receiver}, due at {@code nowMillis} and not claimed by anyone
     * else whose lease still runs, each the earliest pending event of its plant id, in the order they were recorded.
     * They are leased to the caller until {@code nowMillis} plus {@link #LEASE}.
     */
    List<PlantEvent> claim(String receiver, long nowMillis, int max);

    /** Settles these events as delivered: they leave the outbox, and the next event of each plant id may go. */
    void delivered(List<PlantEvent> events);

    /**
     * Keeps these events pending, due again at {@code dueAtMillis}, and ends their lease; {@code afterFailure} counts
     * the attempt that failed, else none is counted (events freed unsent, for any claim to take).
     */
    void reschedule(List<PlantEvent> events, long dueAtMillis, boolean afterFailure);

    /**
     * Gives up on these events, counting the attempt that failed: never tried again, and the next event of each plant
     * id may go. A database store keeps them for an operator to list and send again ({@code UndeliverableEvents}).
     */
    void giveUp(List<PlantEvent> events);

    /**
     * Turns {@code receiver} off, after it answered {@code 410 Gone}: no event is recorded for it until an operator
     * turns it on again, for every process on the store, and its pending events are given up on (kept as
     * undeliverable where {@link #giveUp} keeps them). Returns how many were pending.
     */
    int turnOff(String receiver, long nowMillis);

    /** Whether {@code receiver} is turned off ({@link #turnOff}); cheap enough to ask every second. */
    boolean isOff(String receiver);

    /** Where the store publishes the events of each commit, for a delivery to subscribe to. */
    CommittedEvents committed();

    /** How many events wait, per receiver, and since when: what the metrics show and the pace of writes reads. */
    Backlogs backlogs();

    /** What an outbox tells of the events waiting for each receiver, for metrics and for the pace of writes. */
    interface Backlogs {

        /** The pending events of one receiver, and when the oldest of them was recorded (0 when there is none). */
        record Backlog(long pending, long oldestRecordedAtMillis) {
        }

        /** How many events of {@code receiver} are pending, which may cost a scan, and when the oldest was recorded. */
        Backlog counted(String receiver);

        /** The backlog where it is known without a scan (an outbox in memory), else empty. */
        Optional<Backlog> withoutScan(String receiver);

        /**
         * When the oldest pending event of {@code receiver} was recorded (0 when there is none); cheap at any
         * backlog.
         */
        long oldestRecordedAt(String receiver);
    }
}
