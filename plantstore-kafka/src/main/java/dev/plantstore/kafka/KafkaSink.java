package dev.plantstore.kafka;

import dev.plantstore.core.EventSink;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.Webhooks;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Kafka topic that gets a store's plant events: one record per create that stored a plant and per delete that
 * removed one, keyed by the plant's id, a CloudEvent in binary content mode, sent by Apache Kafka's idempotent
 * producer with {@code acks=all} (docs/kafka.md). Give it to a store as any {@link EventSink}. Immutable; neither its
 * {@code toString} nor its {@link #target()} shows a client property's value.
 *
 * <pre>{@code
 * KafkaSink kafka = KafkaSink.to("broker-1:9092,broker-2:9092", "plant-events")
 *         .withClientProperties(Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config", jaas));
 * PlantStore store = PlantStores.jdbc(pool, JdbcStoreSettings.defaults().withSink(kafka));
 * }</pre>
 */
public final class KafkaSink implements EventSink {

    /** The topic when none is named. */
    public static final String DEFAULT_TOPIC = "plant-events";

    /**
     * The producer's settings the sink makes itself, which client properties may not change: how records are written
     * (serializers, idempotence and acknowledgements, on which no duplicate and no loss rest) and the time-outs that
     * keep each send shorter than the outbox's lease on its event.
     */
    static final Set<String> SET_BY_THE_SINK = Set.of("bootstrap.servers", "key.serializer", "value.serializer",
            "enable.idempotence", "acks", "max.in.flight.requests.per.connection", "retries", "delivery.timeout.ms",
            "request.timeout.ms", "max.block.ms", "transactional.id");

    /** A host (a name, IPv4 or bracketed IPv6 address) and a port, as Kafka's clients take a bootstrap server. */
    private static final Pattern SERVER = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._-]+):([0-9]{1,5})");
    /** Kafka's own rule for a topic's name. */
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");

    private final List<String> servers;
    private final String topic;
    private final Map<String, String> clientProperties;
    private final WebhookListener listener;
    private final Duration retryPeriod;

    private KafkaSink(List<String> servers, String topic, Map<String, String> clientProperties,
                      WebhookListener listener, Duration retryPeriod) {
        this.servers = servers;
        this.topic = topic;
        this.clientProperties = clientProperties;
        this.listener = listener;
        this.retryPeriod = retryPeriod;
    }

    /**
     * Events to {@code topic} on the cluster that {@code bootstrapServers} lead to: {@code HOST:PORT}, or several
     * separated by commas, over plain TCP unless client properties say otherwise.
     *
     * @throws IllegalArgumentException naming what is wrong with a server or the topic
     */
    public static KafkaSink to(String bootstrapServers, String topic) {
        Objects.requireNonNull(bootstrapServers, "null bootstrap servers");
        Objects.requireNonNull(topic, "null topic");
        List<String> servers = List.of(bootstrapServers.strip().split("\\s*,\\s*"));
        for (String server : servers) {
            var matcher = SERVER.matcher(server);
            if (!matcher.matches() || Integer.parseInt(matcher.group(2)) < 1
                    || Integer.parseInt(matcher.group(2)) > 65_535) {
                throw new IllegalArgumentException("Kafka bootstrap server '" + server + "' is not HOST:PORT with a "
                        + "port from 1 to 65535");
            }
        }
        if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("Kafka topic '" + topic + "' is not a topic name: 1 to 249 letters, "
                    + "digits, '.', '_' or '-', and neither '.' nor '..'");
        }
        return new KafkaSink(servers, topic, Map.of(), WebhookListener.NONE, Webhooks.DEFAULT_RETRY_PERIOD);
    }

    /**
     * The same sink, its producer also configured with {@code properties}, as Kafka's own tools take them: how to
     * connect and authenticate ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}, PEM trust and keys
     * included), batching and compression. The settings the sink makes itself ({@code acks},
     * {@code enable.idempotence}, the serializers and the time-outs) are refused.
     *
     * @throws IllegalArgumentException naming a property the sink sets itself, never quoting a value
     */
    public KafkaSink withClientProperties(Map<String, String> properties) {
        var copy = new LinkedHashMap<String, String>();
        properties.forEach((name, value) -> {
            Objects.requireNonNull(name, "null property name");
            Objects.requireNonNull(value, "null value of " + name);
            if (SET_BY_THE_SINK.contains(name.strip())) {
                throw new IllegalArgumentException("the Kafka client property " + name.strip() + " is set by the "
                        + "sink itself and may not be given");
            }
            copy.put(name.strip(), value);
        });
        return new KafkaSink(servers, topic, Map.copyOf(copy), listener, retryPeriod);
    }

    /** The same sink, telling {@code listener} of each attempt, delivery and backlog, under {@link #target()}. */
    public KafkaSink withListener(WebhookListener listener) {
        return new KafkaSink(servers, topic, clientProperties, Objects.requireNonNull(listener, "null listener"),
                retryPeriod);
    }

    /**
     * The same sink, retrying an event for {@code period} after its write (at least a minute) before giving it up as
     * undeliverable.
     */
    public KafkaSink withRetryPeriod(Duration period) {
        Objects.requireNonNull(period, "null period");
        if (period.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("the retry period must be at least a minute");
        }
        return new KafkaSink(servers, topic, clientProperties, listener, period);
    }

    /** {@code kafka://HOST:PORT[,HOST:PORT...]/TOPIC}: the bootstrap servers and the topic, no credential. */
    @Override
    public URI target() {
        return URI.create("kafka://" + bootstrapServers() + "/" + topic);
    }

    /** The bootstrap servers, separated by commas. */
    public String bootstrapServers() {
        return String.join(",", servers);
    }

    public String topic() {
        return topic;
    }

    public Duration retryPeriod() {
        return retryPeriod;
    }

    WebhookListener listener() {
        return listener;
    }

    Map<String, String> clientProperties() {
        return clientProperties;
    }

    @Override
    public String toString() {
        return "KafkaSink[" + target() + (clientProperties.isEmpty() ? "" : ", " + clientProperties.size()
                + " client properties") + "]";
    }
}
