package dev.plantstore.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a sink accepts, and that nothing of its client properties' values shows. */
class KafkaSinkTest {

    @Test
    void theTargetNamesTheServersAndTheTopic() {
        var sink = KafkaSink.to("broker-1:9092, broker-2:9093", "plant-events");
        assertEquals(URI.create("kafka://broker-1:9092,broker-2:9093/plant-events"), sink.target());
        assertEquals("broker-1:9092,broker-2:9093", sink.bootstrapServers());
    }

    @Test
    void aServerWithoutAPortIsRefusedNamingIt() {
        var e = assertThrows(IllegalArgumentException.class, () -> KafkaSink.to("broker-1", "plant-events"));
        assertEquals("Kafka bootstrap server 'broker-1' is not HOST:PORT with a port from 1 to 65535", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KafkaSink.to("broker-1:70000", "plant-events"));
    }

    @Test
    void aTopicNameKafkaWouldRefuseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> KafkaSink.to("broker:9092", "plant events"));
        assertThrows(IllegalArgumentException.class, () -> KafkaSink.to("broker:9092", ".."));
        assertThrows(IllegalArgumentException.class, () -> KafkaSink.to("broker:9092", ""));
    }

    @Test
    void whatTheSinkSetsItselfCannotBeGiven() {
        var sink = KafkaSink.to("broker:9092", "plant-events");
        var e = assertThrows(IllegalArgumentException.class, () -> sink.withClientProperties(Map.of("acks", "1")));
        assertEquals("the Kafka client property acks is set by the sink itself and may not be given", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> sink.withClientProperties(Map.of("enable.idempotence", "false")));
    }

    @Test
    void neitherTheSinkNorAClientRefusalShowsAPropertyValue() {
        var sink = KafkaSink.to("broker:9092", "plant-events").withClientProperties(Map.of(
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"u\" password=\"hunter2-secret\";",
                "security.protocol", "hunter2-secret"));
        assertFalse(sink.toString().contains("hunter2"), sink.toString());
        assertFalse(sink.target().toString().contains("hunter2"));
        var e = assertThrows(IllegalArgumentException.class, () -> KafkaDelivery.producer(sink));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        assertTrue(e.getMessage().contains("security.protocol"), e.getMessage());
    }
}
