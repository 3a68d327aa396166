package dev.plantstore.core.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The events waiting to be delivered, per receiver. A store records them together with the writes they report; a
 * delivery claims them, tries them and reports back. Safe for concurrent use, and on PostgreSQL
 * for use by several processes at once.
 */
public interface Outbox {

    /**
     * How long a claim keeps an event from other claims: longer than an attempt, which ends within its 10 s deadline,
     * and how long the events of an instance that died wait before another (or its restart) takes them over.
     */
    Duration LEASE = Duration.ofSeconds(30);

    /** The pending events of one receiver, and when the oldest of them was recorded (0 when there is none). */
    record Backlog(long pending, long oldestRecordedAtMillis) {
    }

    /**
     * Up to {@code max} pending events of {@code receiver}, due at {@code nowMillis} and not claimed by anyone else
     * whose lease still runs, each the earliest pending event of its plant id, in the order they were recorded. They
     * are leased to the caller until {@code nowMillis} plus {@link #LEASE}.
     */
    List<PlantEvent> claim(String receiver, long nowMillis, int max);

    /** Removes these events: the receiver has them. */
    void delivered(List<PlantEvent> events);

    /** Ends the lease of these events without counting an attempt: any claim may take them again. */
    void release(List<PlantEvent> events);

    /** Keeps the event pending, counting the failed attempt, and due again at {@code atMillis}; ends its lease. */
    void retryAt(PlantEvent event, long atMillis);

    /**
     * Files under {@code key} the pending events recorded under {@code fullUrl}, the receiver's URL as releases before
     * schema version 2 filed them: one of those still running beside this one during a rolling upgrade records them so.
     */
    void refile(String fullUrl, String key);

    /** Keeps the event, no longer pending: it is not tried again, and the next event of its plant id may go. */
    void undeliverable(PlantEvent event);

    Backlog backlog(String receiver);

    /** The backlog where it is known without a scan (an outbox in memory), else empty. */
    Optional<Backlog> backlogWithoutScan(String receiver);

    /** When the oldest pending event of {@code receiver} was recorded (0 when there is none); cheap at any backlog. */
    long oldestRecordedAt(String receiver);

    /** How many events of {@code receiver} have been given up on and are kept. */
    long undeliverableCount(String receiver);
}
