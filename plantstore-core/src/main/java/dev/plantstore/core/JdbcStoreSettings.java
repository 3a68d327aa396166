package dev.plantstore.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link PlantStores#jdbc(javax.sql.DataSource, JdbcStoreSettings)} runs its store: {@code timeout} (an operation
 * not done within it throws {@link StoreUnavailableException}), {@code listener} (told of each group commit),
 * {@code webhooks} and {@code sinks} (where the writes' events go, each keeping its own place in the outbox) and
 * {@code migratesSchema} (whether opening may create and migrate the tables, {@link JdbcSchema}, as by default;
 * without, a database not at this release's version is refused, and the user needs no right to change the schema).
 *
 * <pre>{@code
 * PlantStore store = PlantStores.jdbc(pool, JdbcStoreSettings.defaults().withWebhooks(webhooks));
 * }</pre>
 */
public record JdbcStoreSettings(Duration timeout, CommitListener listener, Optional<Webhooks> webhooks,
                                boolean migratesSchema, List<EventSink> sinks) {

    /** 5 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public JdbcStoreSettings {
        Objects.requireNonNull(timeout, "null timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        Objects.requireNonNull(listener, "null listener");
        Objects.requireNonNull(webhooks, "null webhooks");
        sinks = List.copyOf(sinks);
    }

    /** The settings of release 1.0, which had no sinks beside webhooks. */
    public JdbcStoreSettings(Duration timeout, CommitListener listener, Optional<Webhooks> webhooks,
                             boolean migratesSchema) {
        this(timeout, listener, webhooks, migratesSchema, List.of());
    }

    /** The default time-out, no listener, no webhooks nor other sinks; the schema is migrated when the store opens. */
    public static JdbcStoreSettings defaults() {
        return new JdbcStoreSettings(DEFAULT_TIMEOUT, CommitListener.NONE, Optional.empty(), true);
    }

    public JdbcStoreSettings withTimeout(Duration timeout) {
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema, sinks);
    }

    public JdbcStoreSettings withListener(CommitListener listener) {
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema, sinks);
    }

    public JdbcStoreSettings withWebhooks(Webhooks webhooks) {
        return new JdbcStoreSettings(timeout, listener, Optional.of(webhooks), migratesSchema, sinks);
    }

    /** The same settings, the events sent to {@code sink} too, after the sinks given before. */
    public JdbcStoreSettings withSink(EventSink sink) {
        Objects.requireNonNull(sink, "null sink");
        var more = new ArrayList<>(sinks);
        more.add(sink);
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema, more);
    }

    public JdbcStoreSettings withMigratesSchema(boolean migratesSchema) {
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema, sinks);
    }
}
