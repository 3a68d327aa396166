package dev.plantstore.core;

import dev.plantstore.core.jdbc.Dialect;
import dev.plantstore.core.jdbc.JdbcOutbox;
import dev.plantstore.core.jdbc.Schema;
import dev.plantstore.core.webhooks.DeliverySettings;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The webhook events of a database store that were given up on (kept in {@code webhook_outbox} as undeliverable), for
 * an operator to list and to send again once the receiver is fixed. It works beside running servers: a server's
 * delivery takes a redelivered event at its next look, within a second, with a fresh retry period.
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
     * @param recordedAt when the write it reports committed
     * @param attempts   how many attempts failed
     */
    public record Event(String id, String receiver, String type, long plantId, Instant recordedAt, int attempts) {
    }

    private final DataSource dataSource;

    private UndeliverableEvents(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "null dataSource");
    }

    /**
     * The undeliverable events in the database behind {@code dataSource}, a SQLite or PostgreSQL store's. Only reads
     * and changes rows: a database without the store's tables, or at another release's version, is refused as it is.
     *
     * @throws IllegalArgumentException   when the database is neither
     * @throws StoreUnavailableException when it is not a store of this release's schema version
     */
    public static UndeliverableEvents in(DataSource dataSource) {
        Schema.require(dataSource, Dialect.of(dataSource));
        return new UndeliverableEvents(dataSource);
    }

    /**
     * Up to {@code limit} undeliverable events, of {@code receiver} or of every receiver, oldest first. A receiver is
     * matched by its scheme, host, port and path, whatever user information or query its URL carries.
     */
    public List<Event> list(Optional<String> receiver, int limit) {
        Objects.requireNonNull(receiver, "null receiver");
        receiver = receiver.map(UndeliverableEvents::keyOf);
        String sql = "SELECT seq, receiver, type, plant_id, recorded_at, attempts FROM webhook_outbox WHERE state = "
                + JdbcOutbox.UNDELIVERABLE + (receiver.isPresent() ? " AND receiver = ?" : "")
                + " ORDER BY seq LIMIT " + Math.max(0, limit);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            if (receiver.isPresent()) {
                select.setString(1, receiver.get());
            }
            List<Event> events = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    events.add(new Event("msg_" + rows.getLong(1), rows.getString(2), rows.getString(3),
                            rows.getLong(4), Instant.ofEpochMilli(rows.getLong(5)), rows.getInt(6)));
                }
            }
            return events;
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be read", e);
        }
    }

    /**
     * Makes every undeliverable event of {@code receiver}, or of every receiver, pending again: due now, with no
     * failed attempt and its retry period starting now. Its id and body stay what they were. Returns how many. A
     * receiver is matched as {@link #list} matches it.
     */
    public int redeliver(Optional<String> receiver) {
        Objects.requireNonNull(receiver, "null receiver");
        receiver = receiver.map(UndeliverableEvents::keyOf);
        String sql = "UPDATE webhook_outbox SET state = " + JdbcOutbox.PENDING + ", attempts = 0, due_at = 0, "
                + "leased_until = 0, retry_from = ? WHERE state = " + JdbcOutbox.UNDELIVERABLE
                + (receiver.isPresent() ? " AND receiver = ?" : "");
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, System.currentTimeMillis());
            if (receiver.isPresent()) {
                update.setString(2, receiver.get());
            }
            return update.executeUpdate();
        } catch (SQLException e) {
            throw new StoreUnavailableException("the webhook outbox could not be written", e);
        }
    }

    private static String keyOf(String receiver) {
        return DeliverySettings.receiverKey(URI.create(receiver));
    }
}
