package dev.plantstore.core;

import dev.plantstore.core.jdbc.JdbcPlantStore;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliveryProvider;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Keeps plants by id. Implementations are safe for concurrent use by any number of threads, and each operation is
 * atomic: of many concurrent creates of one id exactly one is {@link CreateResult.Created}, and of many concurrent
 * deletes of one id exactly one returns {@code true}. A store backed by something outside the process throws
 * {@link StoreUnavailableException} when that cannot be reached.
 *
 * <pre>{@code
 * PlantStore store = PlantStore.inMemory();
 * CreateResult result = store.create(new NewPlant(1, "Monstera", "aroid"));
 * if (result instanceof CreateResult.Duplicate duplicate) {
 *     alreadyThere(duplicate.id());
 * }
 * }</pre>
 */
public interface PlantStore extends AutoCloseable {

    /**
     * Adds the plant unless its id is taken; a taken id leaves the stored plant as it was. An id that holds exactly
     * this plant answers {@link CreateResult.AlreadyStored}, so that a retried create can tell its own plant from
     * another.
     */
    CreateResult create(NewPlant plant);

    /**
     * As {@link #create(NewPlant)}, within the trace {@code trace}: a store that records webhook events keeps it with
     * the event, so that the event's delivery joins the trace. Other stores ignore it.
     */
    default CreateResult create(NewPlant plant, TraceContext trace) {
        Objects.requireNonNull(trace, "null trace");
        return create(plant);
    }

    /** Removes the plant with this id; {@code true} when there was one. A deleted id may be created again. */
    boolean delete(long id);

    /** As {@link #delete(long)}, within the trace {@code trace}, as {@link #create(NewPlant, TraceContext)} says. */
    default boolean delete(long id, TraceContext trace) {
        Objects.requireNonNull(trace, "null trace");
        return delete(id);
    }

    /** The plant stored under this id, if any. */
    Optional<Plant> find(long id);

    /**
     * Whether the store can serve requests now; a database-backed store checks its connection. Answers within a
     * bounded time and never throws.
     */
    default boolean isAvailable() {
        return true;
    }

    /** Releases what the store holds (threads, connections). Operations after {@code close} fail. */
    @Override
    default void close() {
    }

    /** A store that keeps its plants in this process's memory, compactly: fast, and gone on exit. */
    static PlantStore inMemory() {
        return new InMemoryPlantStore();
    }

    /**
     * As {@link #inMemory()}, sending an event for each create that stores a plant and each delete that removes one
     * to {@code webhooks}' receivers. The events wait for delivery in memory too: those not yet delivered are lost on
     * exit. At most 100,000 wait per receiver: past that, a write throws {@link StoreUnavailableException} and changes
     * nothing, until the receiver has taken some.
     *
     * @throws IllegalStateException when the module {@code plantstore-webhooks}, which sends the events, is missing
     */
    static PlantStore inMemory(Webhooks webhooks) {
        var outbox = new MemoryOutbox(webhooks.receiverKeys());
        var delivery = DeliveryProvider.startFor(outbox, webhooks.delivery());
        outbox.handEventsTo(delivery);
        return new DeliveringPlantStore(new InMemoryPlantStore(outbox), delivery);
    }

    /**
     * A store in the database behind {@code dataSource}, in table {@code plants}, created when missing, with the
     * {@linkplain JdbcStoreSettings#defaults() default settings}. Each create or delete is acknowledged only once
     * committed; concurrent ones share a transaction (group commit). An operation that cannot finish within five
     * seconds throws {@link StoreUnavailableException}.
     *
     * <p>SQLite and PostgreSQL are supported and tested; the store refuses to open on any other database. On
     * PostgreSQL any number of stores, in any number of processes, may share one database: each transaction takes
     * advisory locks on its ids in ascending order ({@code pg_advisory_xact_lock}), so they never deadlock.
     * {@link #isAvailable()} is false while a write cannot commit. The store opens and closes its connections
     * through {@code dataSource} as it needs them: give it a pool.
     *
     * @throws StoreUnavailableException when the database cannot be reached or its schema is of a newer release
     * @throws IllegalArgumentException when the database is neither SQLite nor PostgreSQL
     */
    static PlantStore jdbc(DataSource dataSource) {
        return jdbc(dataSource, JdbcStoreSettings.defaults());
    }

    /**
     * As {@link #jdbc(DataSource)}, run as {@code settings} say. With webhooks, an event is sent for each create that
     * stores a plant and each delete that removes one to each receiver, at least once. The event is recorded in table
     * {@code webhook_outbox} in the transaction of its write, so an acknowledged write always gets its event, after a
     * crash too, and a write that failed gets none. Every store on one database shares the work: each event is sent
     * by one of them at a time, and the events of one that dies are taken over after 30 s.
     *
     * @throws IllegalStateException when the settings hold webhooks and the module {@code plantstore-webhooks}, which
     *                               sends the events, is missing
     */
    static PlantStore jdbc(DataSource dataSource, JdbcStoreSettings settings) {
        if (!settings.migratesSchema()) {
            JdbcSchema.require(dataSource);
        }
        if (settings.webhooks().isEmpty()) {
            return new JdbcPlantStore(dataSource, settings.timeout(), settings.listener());
        }
        Webhooks webhooks = settings.webhooks().get();
        var store = new JdbcPlantStore(dataSource, settings.timeout(), settings.listener(), webhooks.receiverKeys());
        try {
            var delivery = DeliveryProvider.startFor(store.outbox(), webhooks.delivery());
            store.handEventsTo(delivery);
            return new DeliveringPlantStore(store, delivery);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }
}
