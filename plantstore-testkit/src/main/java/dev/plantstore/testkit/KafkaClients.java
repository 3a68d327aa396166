package dev.plantstore.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** What the test kit's brokers and clusters do as Kafka clients: make a topic, read one back. */
final class KafkaClients {

    private KafkaClients() {
    }

    /** Creates {@code topic} through the brokers at {@code servers} and waits until they serve it. */
    static void createTopic(String servers, NewTopic topic) throws InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
            admin.createTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create topic " + topic.name(), e);
        }
    }

    /**
     * Every record of {@code topic} from its start, read through the brokers at {@code servers} with the client
     * properties {@code security}, until {@code count} are in or {@code limit} has passed, by a consumer that reads
     * only committed data and commits nothing.
     */
    static List<ConsumerRecord<String, byte[]>> read(String servers, Map<String, String> security, String topic,
                                                     int count, Duration limit) {
        var properties = new Properties();
        properties.putAll(security);
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, byte[]>(properties)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + limit.toNanos();
            while (records.size() < count && System.nanoTime() - deadline < 0) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
