package dev.plantstore.core.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantEventsContract;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a database store adds to every store's events: it keeps those given up on, for an operator to send again. */
abstract class JdbcPlantEventsContract extends PlantEventsContract {

    /** The outbox of a database store, which {@link #newStore} opens. */
    private static JdbcOutbox outboxOf(EventStore events) {
        return ((JdbcPlantStore) events.store()).outbox();
    }

    @Test
    void anEventGivenUpOnIsKeptWithItsAttempts() throws Exception {
        EventStore events = open();
        String receiver = RECEIVERS.get(0);
        events.store().create(new NewPlant(1, "Monstera"));
        events.store().create(new NewPlant(2, "Fern"));
        List<PlantEvent> page = events.outbox().claim(receiver, Long.MAX_VALUE / 2, 1);
        events.outbox().giveUp(page);
        List<PlantEvent> kept = outboxOf(events).givenUp(Optional.of(receiver), 10);
        assertEquals(List.of(page.get(0).seq()), kept.stream().map(PlantEvent::seq).toList());
        assertEquals(1, kept.get(0).attempts());
        assertEquals(List.of(), outboxOf(events).givenUp(Optional.of(RECEIVERS.get(1)), 10), "another receiver's");
    }

    @Test
    void anEventGivenUpOnIsSentAgainAfterARedeliveryWithAFreshRetryPeriod() throws Exception {
        EventStore events = open();
        String receiver = RECEIVERS.get(0);
        events.store().create(new NewPlant(1, "Monstera"));
        events.outbox().giveUp(events.outbox().claim(receiver, Long.MAX_VALUE / 2, 10));
        assertEquals(List.of(), events.outbox().claim(receiver, Long.MAX_VALUE / 2, 10), "given up on, not pending");
        long redeliveredAt = System.currentTimeMillis();
        assertEquals(1, outboxOf(events).redeliver(Optional.of(receiver), redeliveredAt));
        List<PlantEvent> again = events.outbox().claim(receiver, Long.MAX_VALUE / 2, 10);
        assertEquals(List.of("plant.created 1 Monstera"), again.stream().map(PlantEventsContract::describe).toList());
        assertEquals(0, again.get(0).attempts());
        assertEquals(redeliveredAt, again.get(0).retryFromMillis());
        assertEquals(List.of(), outboxOf(events).givenUp(Optional.empty(), 10));
    }
}
