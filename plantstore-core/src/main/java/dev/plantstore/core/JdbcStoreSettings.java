package dev.plantstore.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link PlantStores#jdbc(javax.sql.DataSource, JdbcStoreSettings)} runs its store:
 *
 * <ul>
 *   <li>{@code timeout}: an operation that cannot finish within it throws {@link StoreUnavailableException};
 *   <li>{@code listener}: told of each group commit (for metrics);
 *   <li>{@code webhooks}: where events of the writes go, if anywhere;
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
                                boolean migratesSchema) {

    /** 5 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public JdbcStoreSettings {
        Objects.requireNonNull(timeout, "null timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        Objects.requireNonNull(listener, "null listener");
        Objects.requireNonNull(webhooks, "null webhooks");
    }

    /** The default time-out, no listener, no webhooks; the schema is migrated when the store opens. */
    public static JdbcStoreSettings defaults() {
        return new JdbcStoreSettings(DEFAULT_TIMEOUT, CommitListener.NONE, Optional.empty(), true);
    }

    public JdbcStoreSettings withTimeout(Duration timeout) {
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema);
    }

    public JdbcStoreSettings withListener(CommitListener listener) {
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema);
    }

    public JdbcStoreSettings withWebhooks(Webhooks webhooks) {
        return new JdbcStoreSettings(timeout, listener, Optional.of(webhooks), migratesSchema);
    }

    public JdbcStoreSettings withMigratesSchema(boolean migratesSchema) {
        return new JdbcStoreSettings(timeout, listener, webhooks, migratesSchema);
    }
}
