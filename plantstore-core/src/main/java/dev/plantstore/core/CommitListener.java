package dev.plantstore.core;

/**
 * Told of each group commit of a {@link PlantStores#jdbc(javax.sql.DataSource, JdbcStoreSettings) JDBC store} that
 * has it in its settings ({@link JdbcStoreSettings#withListener}): how many creates and deletes shared the
 * transaction and how long it took, for metrics. Called on the store's writer thread once the callers have their
 * answers, so it must be quick; what it throws is logged and fails no write.
 */
@FunctionalInterface
public interface CommitListener {

    /** A listener that does nothing, for a store nobody measures. */
    CommitListener NONE = (writes, nanos) -> {
    };

    /** {@code writes} creates and deletes were committed together, in {@code nanos} from first statement to commit. */
    void committed(int writes, long nanos);
}
