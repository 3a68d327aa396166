package dev.plantstore.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link PlantStores#jdbc(javax.sql.DataSource, JdbcStoreSettings)} runs its store:
 *
 * <ul>
 *   <li>{@code timeout}: an operation that cannot finish within it throws {@link StoreUnavailableException};
 *   <li>{@code listener}: told of each group commit (for metrics);
 *   <li>{@code webhooks}: where events of the writes go, if anywhere;
 *   <li>{@code sinks}: where else they go ({@link EventSink}), each sink keeping its own place in the outbox;
 *   <li>{@code migratesSchema}: whether opening the store may create its tables and migrate them to this release's
 *       version ({@link JdbcSchema}), as by default; without, it only checks the version and refuses a database
 *       that is not at it, so that its database user needs no right to change the schema.
 * </ul>
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
