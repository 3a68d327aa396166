package dev.plantstore.core.webhooks;

import dev.plantstore.core.WebhookListener;
import java.net.URI;
import java.time.Duration;

/**
 * What the {@link WebhookListener} hears of one destination, a webhook receiver or another sink: each attempt's
 * outcome, each delivery's latency, and the backlog, whose oldest event's age is read every second and whose count,
 * which costs a scan, every few seconds. A listener that throws is logged and never stops the delivery.
 */
public final class DeliveryReport {

    private static final System.Logger LOG = System.getLogger(DeliveryReport.class.getName());

    private static final Duration OLDEST_EVERY = Duration.ofSeconds(1);
    private static final Duration COUNT_EVERY = Duration.ofSeconds(5);

    private final URI receiver;
    private final String key;
    private final Outbox.Backlogs backlogs;
    private final WebhookListener listener;
    private long nextOldestNanos = System.nanoTime();
    private long nextCountNanos = System.nanoTime();
    private long pendingCount;
    /** When the oldest pending event was recorded, as {@link #backlog} last read it; 0 for none. */
    private long oldestPendingMillis;

    public DeliveryReport(URI receiver, String key, Outbox.Backlogs backlogs, WebhookListener listener) {
        this.receiver = receiver;
        this.key = key;
        this.backlogs = backlogs;
        this.listener = listener;
    }

    /** When the oldest pending event was recorded, as last read; 0 for none. */
    public long oldestPendingMillis() {
        return oldestPendingMillis;
    }

    /** Reads and reports the backlog, when its figures are due. */
    public void backlog(long now) {
        long nanos = System.nanoTime();
        if (nanos - nextOldestNanos < 0) {
            return;
        }
        nextOldestNanos = nanos + OLDEST_EVERY.toNanos();
        long oldest = backlogs.oldestRecordedAt(key);
        oldestPendingMillis = oldest;
        if (oldest == 0) {
            pendingCount = 0;
        } else if (nanos - nextCountNanos >= 0) {
            nextCountNanos = nanos + COUNT_EVERY.toNanos();
            pendingCount = backlogs.counted(key).pending();
        }
        long age = oldest == 0 ? 0 : Math.max(0, now - oldest);
        try {
            listener.backlog(receiver, pendingCount, age);
        } catch (RuntimeException e) {
            listenerFailed(e);
        }
    }

    public void attempted(WebhookListener.Outcome outcome) {
        try {
            listener.attempted(receiver, outcome);
        } catch (RuntimeException e) {
            listenerFailed(e);
        }
    }

    public void delivered(long sinceWriteMillis) {
        try {
            listener.delivered(receiver, Duration.ofMillis(Math.max(0, sinceWriteMillis)));
        } catch (RuntimeException e) {
            listenerFailed(e);
        }
    }

    /** Whether the receiver is turned off after a {@code 410 Gone}, told at start and on each change. */
    public void turnedOff(boolean off) {
        try {
            listener.turnedOff(receiver, off);
        } catch (RuntimeException e) {
            listenerFailed(e);
        }
    }

    private static void listenerFailed(RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "events: the listener failed", e);
    }
}
