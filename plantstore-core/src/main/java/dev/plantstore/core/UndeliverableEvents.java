package dev.plantstore.core;

import dev.plantstore.core.jdbc.Dialect;
import dev.plantstore.core.jdbc.JdbcOutbox;
import dev.plantstore.core.jdbc.Schema;
import dev.plantstore.core.webhooks.DeliverySettings;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The webhook events of a database store that were given up on (kept in {@code webhook_outbox} as undeliverable), for
 * an operator to list and to send again once the receiver is fixed, and the receivers turned off after a {@code 410
 * Gone}, to turn on again. It works beside running servers: a server's delivery takes a redelivered event at its next
 * look, within a second, with a fresh retry period.
 *
 * <pre>{@code
 * var undeliverable = UndeliverableEvents.in(dataSource);
 * undeliverable.list(Optional.empty(), 100).forEach(System.out::println);
 * int again = undeliverable.redeliver(Optional.of("https://search.example/plant-events"));
 * }</pre>
 */
public final class UndeliverableEvents {

    /**
     * One event given up on.
     *
     * @param id         its {@code webhook-id}, the same when it is sent again
     * @param receiver   the receiver as the outbox files it: scheme, host, port and path of its URL
     * @param recordedAt when the write it reports was recorded: as its batch began, a moment before the commit
     * @param attempts   how many attempts failed
     */
    public record Event(String id, String receiver, String type, long plantId, Instant recordedAt, int attempts) {
    }

    private final JdbcOutbox outbox;

    private UndeliverableEvents(JdbcOutbox outbox) {
        this.outbox = outbox;
    }

    /**
     * The undeliverable events in the database behind {@code dataSource}, a SQLite or PostgreSQL store's. Only reads
     * and changes rows: a database without the store's tables, or at another release's version, is refused as it is.
     *
     * @throws IllegalArgumentException   when the database is neither
     * @throws StoreUnavailableException when it is not a store of this release's schema version
     */
    public static UndeliverableEvents in(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "null dataSource");
        Dialect dialect = Dialect.of(dataSource);
        Schema.require(dataSource, dialect);
        return new UndeliverableEvents(JdbcOutbox.of(dataSource, dialect));
    }

    /**
     * Up to {@code limit} undeliverable events, of {@code receiver} or of every receiver, oldest first. A receiver is
     * matched by its scheme, host, port and path, whatever user information or query its URL carries.
     */
    public List<Event> list(Optional<String> receiver, int limit) {
        Objects.requireNonNull(receiver, "null receiver");
        return outbox.givenUp(receiver.map(UndeliverableEvents::keyOf), limit).stream()
                .map(event -> new Event("msg_" + event.seq(), event.receiver(), event.type(), event.plantId(),
                        Instant.ofEpochMilli(event.recordedAtMillis()), event.attempts()))
                .toList();
    }

    /**
     * Makes every undeliverable event of {@code receiver}, or of every receiver, pending again: due now, with no
     * failed attempt and its retry period starting now. Its id and body stay what they were. Returns how many. A
     * receiver is matched as {@link #list} matches it.
     */
    public int redeliver(Optional<String> receiver) {
        Objects.requireNonNull(receiver, "null receiver");
        return outbox.redeliver(receiver.map(UndeliverableEvents::keyOf), System.currentTimeMillis());
    }

    /**
     * Turns {@code receiver} on again after it answered {@code 410 Gone}: events are recorded for it again, and running
     * servers send them within a second. Its events kept while it was off stay undeliverable until {@link #redeliver}.
     * Returns whether it was off. A receiver is matched as {@link #list} matches it.
     */
    public boolean enable(String receiver) {
        Objects.requireNonNull(receiver, "null receiver");
        return outbox.turnOn(keyOf(receiver));
    }

    private static String keyOf(String receiver) {
        return DeliverySettings.receiverKey(URI.create(receiver));
    }
}
