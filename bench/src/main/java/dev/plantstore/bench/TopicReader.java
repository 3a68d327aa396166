package dev.plantstore.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The Kafka side of a benchmark run: {@code java -cp bench.jar dev.plantstore.bench.TopicReader PORT SERVERS TOPIC}
 * reads every record written to TOPIC from now on and counts each event's first arrival (by {@code ce_id}) and its lag
 * behind the write ({@code ce_time}), as {@link WebhookSink} counts a receiver's: the same {@code /stats} and
 * {@code /reset} on PORT, which answer once the reader stands at the topic's end. The lag is the consumer's, so it
 * bounds the lag to the brokers' acknowledgement from above.
 */
public final class TopicReader {

    private static final Duration POLL = Duration.ofMillis(100);

    private TopicReader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: TopicReader PORT SERVERS TOPIC");
            System.exit(2);
        }
        var properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (var consumer = new KafkaConsumer<String, byte[]>(properties)) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[2]).stream()
                    .map(partition -> new TopicPartition(args[2], partition.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            ReceivedEvents received = WebhookSink.start(Integer.parseInt(args[0])).received();
            while (true) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    long arrivalMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
                    String id = header(record, "ce_id");
                    String time = header(record, "ce_time");
                    if (id == null || time == null) {
                        notCounted(record, "it has no ce_id or no ce_time");
                        continue;
                    }
                    try {
                        received.accept(id, arrivalMicros, arrivalMicros / 1000 - Instant.parse(time).toEpochMilli());
                    } catch (DateTimeParseException e) {
                        notCounted(record, "its ce_time is no instant: " + time);
                    }
                }
            }
        }
    }

    private static void notCounted(ConsumerRecord<String, byte[]> record, String why) {
        System.err.println("not counted, the record at " + record.topic() + "-" + record.partition() + "@"
                + record.offset() + ": " + why);
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
