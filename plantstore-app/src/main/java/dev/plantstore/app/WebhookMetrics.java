package dev.plantstore.app;

import dev.plantstore.core.WebhookListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Webhook deliveries as metrics, per receiver (its URL without user information or query): attempts by outcome
 * ({@value #DELIVERIES}), events waiting ({@value #PENDING}) and the age of the oldest of them
 * ({@value #OLDEST_PENDING}), which grows while a receiver is down.
 */
final class WebhookMetrics implements WebhookListener {

    static final String DELIVERIES = "plantstore.webhook.deliveries";
    static final String PENDING = "plantstore.webhook.pending";
    static final String OLDEST_PENDING = "plantstore.webhook.oldest.pending.seconds";

    private final MeterRegistry registry;
    private final Map<String, AtomicLong[]> gauges = new ConcurrentHashMap<>();

    WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void attempted(URI receiver, Outcome outcome) {
        Counter.builder(DELIVERIES)
                .description("Webhook delivery attempts, by outcome: delivered, failed (to be retried), undeliverable")
                .tag("receiver", shown(receiver))
                .tag("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT))
                .register(registry)
                .increment();
    }

    @Override
    public void backlog(URI receiver, long pending, long oldestAgeMillis) {
        AtomicLong[] values = gauges.computeIfAbsent(shown(receiver), this::register);
        values[0].set(pending);
        values[1].set(oldestAgeMillis);
    }

    private AtomicLong[] register(String receiver) {
        AtomicLong pending = new AtomicLong();
        AtomicLong oldestMillis = new AtomicLong();
        Gauge.builder(PENDING, pending, AtomicLong::get)
                .description("Webhook events waiting for delivery")
                .tag("receiver", receiver)
                .register(registry);
        Gauge.builder(OLDEST_PENDING, oldestMillis, millis -> millis.get() / 1000.0)
                .description("Age of the oldest webhook event waiting for delivery")
                .tag("receiver", receiver)
                .register(registry);
        return new AtomicLong[] {pending, oldestMillis};
    }

    private static String shown(URI receiver) {
        String port = receiver.getPort() == -1 ? "" : ":" + receiver.getPort();
        return receiver.getScheme() + "://" + receiver.getHost() + port + (receiver.getRawPath() == null ? ""
                : receiver.getRawPath());
    }
}
