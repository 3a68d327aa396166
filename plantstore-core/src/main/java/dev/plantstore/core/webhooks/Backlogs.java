package dev.plantstore.core.webhooks;

import java.util.Optional;

/** What an outbox tells of the events waiting for each receiver, for metrics and for the pace of writes. */
public interface Backlogs {

    /** The pending events of one receiver, and when the oldest of them was recorded (0 when there is none). */
    record Backlog(long pending, long oldestRecordedAtMillis) {
    }

    /** How many events of {@code receiver} are pending, which may cost a scan, and the oldest's age. */
    Backlog counted(String receiver);

    /** The backlog where it is known without a scan (an outbox in memory), else empty. */
    Optional<Backlog> withoutScan(String receiver);

    /** When the oldest pending event of {@code receiver} was recorded (0 when there is none); cheap at any backlog. */
    long oldestRecordedAt(String receiver);
}
