package dev.plantstore.app;

import dev.plantstore.core.WebhookListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Webhook deliveries as metrics, per receiver (its URL without user information or query) and per sink beside them
 * (the Kafka sink's {@code kafka://SERVERS/TOPIC}, under the same tag): attempts by outcome
 * ({@value #DELIVERIES}), events waiting ({@value #PENDING}) and the age of the oldest of them
 * ({@value #OLDEST_PENDING}), which grows while a receiver is down, and the time from write to delivery
 * ({@value #DELIVERY_LAG}, a histogram).
 */
final class WebhookMetrics implements WebhookListener {

    static final String DELIVERIES = "plantstore.webhook.deliveries";
    static final String PENDING = "plantstore.webhook.pending";
    static final String OLDEST_PENDING = "plantstore.webhook.oldest.pending.seconds";
    static final String DELIVERY_LAG = "plantstore.webhook.delivery.lag";
    /** Buckets from a glance (50 ms) to a receiver's outage (an hour): what an alert on lag needs, and few series. */
    private static final Duration[] LAG_BUCKETS = Stream.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
            300.0, 3_600.0).map(seconds -> Duration.ofMillis((long) (seconds * 1_000))).toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final Map<String, AtomicLong[]> gauges = new ConcurrentHashMap<>();
    /** Looked up once per receiver, not once per event: a registry's lookup costs an id and a map search. */
    private final Map<String, Counter> attempts = new ConcurrentHashMap<>();
    private final Map<URI, Timer> lags = new ConcurrentHashMap<>();

    WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void attempted(URI receiver, Outcome outcome) {
        attempts.computeIfAbsent(receiver + " " + outcome, key -> counter(receiver, outcome)).increment();
    }

    private Counter counter(URI receiver, Outcome outcome) {
        return Counter.builder(DELIVERIES)
                .description("Webhook delivery attempts, by outcome: delivered, failed (to be retried), undeliverable")
                .tag("receiver", shown(receiver))
                .tag("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT))
                .register(registry);
    }

    @Override
    public void delivered(URI receiver, Duration sinceWrite) {
        lags.computeIfAbsent(receiver, to -> Timer.builder(DELIVERY_LAG)
                .description("Time from a write to its event's delivery, retries included")
                .tag("receiver", shown(to))
                .serviceLevelObjectives(LAG_BUCKETS)
                .register(registry)).record(sinceWrite);
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

    static String shown(URI receiver) {
        if (receiver.getHost() == null) {
            // A sink's target, such as kafka://broker-1:9092,broker-2:9092/plant-events, names no one host.
            return receiver.getScheme() + "://" + receiver.getRawAuthority() + receiver.getRawPath();
        }
        String port = receiver.getPort() == -1 ? "" : ":" + receiver.getPort();
        return receiver.getScheme() + "://" + receiver.getHost() + port + (receiver.getRawPath() == null ? ""
                : receiver.getRawPath());
    }
}
