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
 * ({@value #OLDEST_PENDING}), which grows while a receiver is down, the time from write to delivery
 * ({@value #DELIVERY_LAG}, a histogram), and whether a receiver is turned off after a 410 ({@value #RECEIVER_OFF}).
 */
final class WebhookMetrics implements WebhookListener {

    static final String DELIVERIES = "plantstore.webhook.deliveries";
    static final String PENDING = "plantstore.webhook.pending";
    static final String OLDEST_PENDING = "plantstore.webhook.oldest.pending.seconds";
    static final String DELIVERY_LAG = "plantstore.webhook.delivery.lag";
    static final String RECEIVER_OFF = "plantstore.webhook.receiver.off";
    /** Buckets from a glance (50 ms) to a receiver's outage (an hour): what an alert on lag needs, and few series. */
    private static final Duration[] LAG_BUCKETS = Stream.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
            300.0, 3_600.0).map(seconds -> Duration.ofMillis((long) (seconds * 1_000))).toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final Map<String, AtomicLong[]> gauges = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> off = new ConcurrentHashMap<>();
    /**
     * Each receiver's counter per outcome, registered once and found again by the URI and the outcome, whose hashes
     * are kept: a registry's lookup would build an id per event.
     */
    private final Map<URI, Map<Outcome, Counter>> attempts = new ConcurrentHashMap<>();
    private final Map<URI, Timer> lags = new ConcurrentHashMap<>();

    WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void attempted(URI receiver, Outcome outcome) {
        attempts.computeIfAbsent(receiver, to -> new ConcurrentHashMap<>())
                .computeIfAbsent(outcome, kind -> counter(receiver, kind)).increment();
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

    @Override
    public void turnedOff(URI receiver, boolean isOff) {
        off.computeIfAbsent(shown(receiver), shown -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(RECEIVER_OFF, value, AtomicLong::get)
                    .description("1 while the webhook receiver is turned off, having answered 410 Gone")
                    .tag("receiver", shown)
                    .register(registry);
            return value;
        }).set(isOff ? 1 : 0);
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
