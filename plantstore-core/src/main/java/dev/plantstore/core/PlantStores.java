package dev.plantstore.core;

import dev.plantstore.core.jdbc.JdbcPlantStore;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliveryProvider;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Opens a {@link PlantStore}: in memory, or in a SQLite or PostgreSQL database. Apart from the interface, so that the
 * interface knows none of its implementations.
 */
public final class PlantStores {

    private PlantStores() {
    }

    /** A store that keeps its plants in this process's memory, compactly: fast, and gone on exit. */
    public static PlantStore inMemory() {
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
    public static PlantStore inMemory(Webhooks webhooks) {
        return inMemory(webhooks, List.of());
    }

    /**
     * As {@link #inMemory(Webhooks)}, the events sent to {@code sinks} too, each sink from its own place in the
     * outbox: one that is down holds back neither the receivers nor the other sinks, and at most 100,000 of its events
     * wait.
     *
     * @throws IllegalStateException    when a module that sends the events is missing
     * @throws IllegalArgumentException when two destinations share a target
     */
    public static PlantStore inMemory(Webhooks webhooks, List<EventSink> sinks) {
        return inMemory(Events.of(Optional.of(webhooks), sinks));
    }

    /**
     * As {@link #inMemory(Webhooks, List)}, the events sent to {@code sinks} alone (at least one).
     *
     * @throws IllegalStateException    when a module that sends the events is missing
     * @throws IllegalArgumentException when there is no sink or two share a target
     */
    public static PlantStore inMemory(List<EventSink> sinks) {
        if (sinks.isEmpty()) {
            throw new IllegalArgumentException("no event sink given");
        }
        return inMemory(Events.of(Optional.empty(), sinks));
    }

    private static PlantStore inMemory(Events events) {
        var outbox = new MemoryOutbox(events.settings().destinationKeys());
        var delivery = DeliveryProvider.startFor(outbox, events.settings());
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
     * {@link PlantStore#isAvailable()} is false while a write cannot commit. The store opens and closes its connections
     * through {@code dataSource} as it needs them: give it a pool.
     *
     * @throws StoreUnavailableException when the database cannot be reached or its schema is of a newer release
     * @throws IllegalArgumentException when the database is neither SQLite nor PostgreSQL
     */
    public static PlantStore jdbc(DataSource dataSource) {
        return jdbc(dataSource, JdbcStoreSettings.defaults());
    }

    /**
     * As {@link #jdbc(DataSource)}, run as {@code settings} say. With webhooks or other sinks, an event is sent for
     * each create that stores a plant and each delete that removes one to each receiver and sink, at least once, each
     * from its own place in the outbox. The event is recorded in table {@code webhook_outbox} in the transaction of
     * its write, so an acknowledged write always gets its event, after a crash too, and a write that failed gets
     * none. Every store on one database shares the work: each event is sent by one of them at a time, and the events
     * of one that dies are taken over after 30 s.
     *
     * @throws IllegalStateException    when the settings hold webhooks and the module {@code plantstore-webhooks},
     *                                  which sends the events, is missing, or a sink whose module is
     * @throws IllegalArgumentException when two destinations share a target
     */
    public static PlantStore jdbc(DataSource dataSource, JdbcStoreSettings settings) {
        if (!settings.migratesSchema()) {
            JdbcSchema.require(dataSource);
        }
        if (settings.webhooks().isEmpty() && settings.sinks().isEmpty()) {
            return new JdbcPlantStore(dataSource, settings.timeout(), settings.listener());
        }
        var events = Events.of(settings.webhooks(), settings.sinks());
        var store = new JdbcPlantStore(dataSource, settings.timeout(), settings.listener(),
                events.settings().destinationKeys());
        try {
            var delivery = DeliveryProvider.startFor(store.outbox(), events.settings());
            return new DeliveringPlantStore(store, delivery);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }
}
