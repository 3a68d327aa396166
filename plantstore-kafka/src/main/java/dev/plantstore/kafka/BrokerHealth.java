package dev.plantstore.kafka;

import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Whether a sink's brokers take its records, told to the log as a state changes, as one line each: when a fault
 * starts (its cause and what to do), when it turns into another, every few minutes while it lasts, and when it ends.
 * While failing, the worker sends one event at a time, each after the back-off; with no event to send, it looks at
 * the topic instead, so brokers down at start are told at once, and so is their return.
 */
final class BrokerHealth {

    static final System.Logger LOG = System.getLogger("dev.plantstore.kafka.TopicWorker");

    /** How often a fault that lasts is told again. */
    static final Duration STILL_FAILING_EVERY = Duration.ofMinutes(5);
    /** How long a look at the topic, to tell a missing topic from brokers down, may take. */
    private static final Duration DIAGNOSIS_TIMEOUT = Duration.ofSeconds(3);

    private final String key;
    private final String topic;
    private final BrokerFaults faults;
    private final RetryPolicy retries;
    private final Supplier<Admin> admins;
    private BrokerFaults.Fault fault;
    private int failedRounds;
    private long failedSends;
    private long nextProbeMillis;
    private long nextStillFailingNanos;

    BrokerHealth(String key, KafkaSink sink, RetryPolicy retries, Supplier<Admin> admins) {
        this.key = key;
        this.topic = sink.topic();
        this.faults = new BrokerFaults(sink.topic(), sink.bootstrapServers());
        this.retries = retries;
        this.admins = admins;
    }

    boolean failing() {
        return fault != null;
    }

    long nextProbeMillis() {
        return nextProbeMillis;
    }

    /** Looks at the topic through {@code producer}, which waits for its metadata a moment at most. */
    void check(Producer<String, byte[]> producer, long now) {
        try {
            producer.partitionsFor(topic);
            delivered();
        } catch (InterruptException e) {
            throw e;
        } catch (KafkaException e) {
            failed(0, e, now);
        }
    }

    /** The brokers took records, or answered a look at the topic. */
    void delivered() {
        if (fault != null) {
            LOG.log(System.Logger.Level.INFO, "kafka to " + key + ": recovered after " + failedRounds
                    + (failedRounds == 1 ? " failed attempt" : " failed attempts") + " (" + failedSends
                    + " events' sends among them); the events kept are sent now");
            fault = null;
            failedRounds = 0;
            failedSends = 0;
        }
    }

    /**
     * An attempt failed: {@code count} sends, the first with {@code failure}, or (none) a look at the topic. The
     * next probe is due after the back-off of the attempts failed in a row.
     */
    void failed(int count, Throwable failure, long now) {
        BrokerFaults.Fault current = faults.describe(failure, failure instanceof TimeoutException && topicMissing());
        failedSends += count;
        failedRounds++;
        nextProbeMillis = now + retries.backoffMillis(failedRounds);
        long nanos = System.nanoTime();
        if (fault == null) {
            LOG.log(System.Logger.Level.ERROR, "kafka to " + key + ": failing, the events are kept and retried: "
                    + current.description());
            nextStillFailingNanos = nanos + STILL_FAILING_EVERY.toNanos();
        } else if (!fault.kind().equals(current.kind())) {
            LOG.log(System.Logger.Level.ERROR, "kafka to " + key + ": failing otherwise now, the events are kept "
                    + "and retried: " + current.description());
            nextStillFailingNanos = nanos + STILL_FAILING_EVERY.toNanos();
        } else if (nanos - nextStillFailingNanos >= 0) {
            LOG.log(System.Logger.Level.WARNING, "kafka to " + key + ": still failing, " + failedSends
                    + " failed sends so far: " + current.description());
            nextStillFailingNanos = nanos + STILL_FAILING_EVERY.toNanos();
        }
        fault = current;
    }

    /**
     * The brokers refused one event's record for what it is: told once, at its first refusal, and retried on the
     * back-off with the others going on, as a change of the topic's limit may let it through.
     */
    void refused(PlantEvent event, Throwable failure) {
        if (event.attempts() == 0) {
            LOG.log(System.Logger.Level.ERROR, "kafka to " + key + ": event " + event.messageId() + " ("
                    + event.type() + " of plant " + event.plantId() + ") is refused, kept and retried: "
                    + faults.describe(failure, false).description());
        }
    }

    /** Whether the brokers answer that the topic does not exist; false when they cannot say. */
    private boolean topicMissing() {
        Admin admin = admins.get();
        try {
            admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(DIAGNOSIS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof UnknownTopicOrPartitionException;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.TimeoutException | KafkaException e) {
            return false;
        } finally {
            // At once: a close that waited for the look still under way would wait for the client's own time-out.
            admin.close(Duration.ZERO);
        }
    }

    /** A local failure (the outbox's, the database's) in one line, without a stack trace. */
    static String describeLocally(Throwable failure) {
        String message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst()
                .orElse(""));
    }
}
