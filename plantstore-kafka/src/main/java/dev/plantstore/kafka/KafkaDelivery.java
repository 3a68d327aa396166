package dev.plantstore.kafka;

import dev.plantstore.core.webhooks.Delivery;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WritePacing;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends the outbox's events to the Kafka sinks of a store: a {@link TopicWorker} and a producer per sink, so a sink
 * whose brokers are down holds up only its own events. Writes wait for a sink that falls behind them as for a webhook
 * receiver ({@link TopicWorker}); while the brokers are down the events wait in the outbox and the writes do not.
 */
final class KafkaDelivery implements Delivery {

    /**
     * The producer's time-outs, each shorter than the outbox's lease (30 s) on the event it sends, so that a send ends,
     * answered or failed, before another instance may claim the event: waiting for the topic's metadata or for room
     * in the producer's buffer, one request to a broker, and the whole send with the producer's own retries.
     */
    static final int MAX_BLOCK_MS = 5_000;
    static final int REQUEST_TIMEOUT_MS = 10_000;
    static final int DELIVERY_TIMEOUT_MS = 20_000;

    /** A client's complaint about a value, which it quotes: only the property's name is passed on. */
    private static final Pattern INVALID_VALUE = Pattern.compile("Invalid value .* for configuration (\\S+?):? (.*)",
            Pattern.DOTALL);

    private final List<TopicWorker> workers = new ArrayList<>();
    private final List<WritePacing> pacings = new ArrayList<>();

    private KafkaDelivery() {
    }

    static KafkaDelivery start(Outbox outbox, List<KafkaSink> sinks) {
        var delivery = new KafkaDelivery();
        try {
            for (KafkaSink sink : sinks) {
                String key = DeliverySettings.receiverKey(sink.target());
                var retries = new RetryPolicy(DeliverySettings.FIRST_RETRY, sink.retryPeriod());
                var health = new BrokerHealth(key, sink, retries, () -> Admin.create(connection(sink)));
                delivery.workers.add(new TopicWorker(sink, outbox, producer(sink), health));
            }
        } catch (RuntimeException e) {
            delivery.close();
            throw e;
        }
        delivery.workers.forEach(worker -> delivery.pacings.add(worker.pacing()));
        delivery.workers.forEach(TopicWorker::start);
        return delivery;
    }

    /**
     * The producer of {@code sink}: idempotent with {@code acks=all}, so the client's own retries add no duplicates
     * and a record counts as sent once every in-sync replica has it; it batches the records as they come (5 ms by
     * default, as Kafka's own default).
     *
     * @throws IllegalArgumentException when the client refuses a property, naming it, never quoting its value
     */
    static Producer<String, byte[]> producer(KafkaSink sink) {
        Properties properties = connection(sink);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(MAX_BLOCK_MS));
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(DELIVERY_TIMEOUT_MS));
        properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
        try {
            return new KafkaProducer<>(properties);
        } catch (KafkaException e) {
            throw new IllegalArgumentException("the Kafka client refuses the sink's settings: " + refusal(e));
        }
    }

    /** What every client of the sink connects with: its client properties, its servers and time-outs. */
    private static Properties connection(KafkaSink sink) {
        var properties = new Properties();
        properties.putAll(sink.clientProperties());
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, sink.bootstrapServers());
        properties.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        properties.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "plantstore-" + sink.topic());
        return properties;
    }

    private static String refusal(KafkaException e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getMessage() != null
                && cause.getMessage().startsWith("Failed to construct")) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        var invalid = INVALID_VALUE.matcher(message);
        return invalid.matches() ? "a value of " + invalid.group(1) + " is invalid: " + invalid.group(2) : message;
    }

    @Override
    public void awaitRoom() {
        WritePacing.awaitEach(pacings);
    }

    @Override
    public void close() {
        workers.forEach(TopicWorker::stop);
        workers.forEach(TopicWorker::awaitStopped);
    }
}
