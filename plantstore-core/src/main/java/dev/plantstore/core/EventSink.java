package dev.plantstore.core;

import java.net.URI;

/**
 * A destination of plant events beside webhooks, such as the Kafka topic of {@code dev.plantstore:plantstore-kafka}'s
 * {@code KafkaSink}: the module that defines a sink also sends its events, found by the store as a service. Give it to
 * a store with {@link JdbcStoreSettings#withSink} or {@link PlantStores#inMemory(Webhooks, java.util.List)}. Each sink
 * keeps its own place in the store's outbox, as each webhook receiver does, so one that is down holds back no other.
 */
public interface EventSink {

    /**
     * Where the sink sends, as the outbox files its events and as logs, metrics and the undeliverable-events commands
     * show it, without any credential: {@code kafka://broker-1:9092,broker-2:9092/plant-events}. No two sinks or
     * receivers of one store may share it.
     */
    URI target();
}
