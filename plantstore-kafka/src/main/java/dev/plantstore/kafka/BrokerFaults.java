package dev.plantstore.kafka;

import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * What a failed send says to an operator: its cause in plain words and what to do, in one line, never with a stack
 * trace nor a client property's value.
 */
final class BrokerFaults {

    /** One kind of failure, told once when it starts: {@code kind} tells one from the next. */
    record Fault(String kind, String description) {
    }

    private final String topic;
    private final String servers;

    BrokerFaults(String topic, String servers) {
        this.topic = topic;
        this.servers = servers;
    }

    /**
     * The fault behind {@code failure}; {@code topicMissing} says whether the brokers, asked, answered that the topic
     * does not exist, which a send that timed out cannot tell from brokers that cannot be reached.
     */
    Fault describe(Throwable failure, boolean topicMissing) {
        if (failure instanceof UnknownTopicOrPartitionException || topicMissing) {
            return new Fault("topic missing", "the topic " + topic + " does not exist and the brokers do not create "
                    + "it: create it (kafka-topics.sh --create --topic " + topic + "), or name another with "
                    + "--kafka-topic");
        }
        if (failure instanceof TopicAuthorizationException) {
            return new Fault("not authorized", "the brokers do not authorize this client to write to the topic "
                    + topic + ": grant its principal WRITE and DESCRIBE on the topic");
        }
        if (failure instanceof ClusterAuthorizationException) {
            return new Fault("not authorized", "the brokers do not authorize this client's idempotent writes: grant "
                    + "its principal IDEMPOTENT_WRITE on the cluster, or WRITE on the topic " + topic);
        }
        if (failure instanceof AuthorizationException) {
            return new Fault("not authorized", "the brokers do not authorize this client (" + simpleName(failure)
                    + "): grant its principal WRITE and DESCRIBE on the topic " + topic);
        }
        if (failure instanceof AuthenticationException) {
            return new Fault("authentication failed", "the brokers at " + servers + " refused the client's "
                    + "authentication (" + simpleName(failure) + "): check security.protocol and the sasl. and "
                    + "ssl. properties of --kafka-config-file");
        }
        if (failure instanceof RecordTooLargeException) {
            return new Fault("record too large", "a record is larger than the producer or the topic allows: raise "
                    + "max.request.size in --kafka-config-file and max.message.bytes of the topic " + topic);
        }
        if (failure instanceof TimeoutException) {
            return new Fault("unreachable", "the brokers at " + servers + " cannot be reached or did not answer in "
                    + "time: check that they run and that this host can connect to them");
        }
        return new Fault(simpleName(failure), "the send failed (" + simpleName(failure) + "): "
                + firstLine(failure.getMessage()));
    }

    /**
     * Whether {@code failure} refuses one record for what it is (over the size limit), not the brokers' state: the
     * other events go on meanwhile.
     */
    static boolean refusesTheRecord(Throwable failure) {
        return failure instanceof RecordTooLargeException;
    }

    private static String simpleName(Throwable failure) {
        return failure.getClass().getSimpleName();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
