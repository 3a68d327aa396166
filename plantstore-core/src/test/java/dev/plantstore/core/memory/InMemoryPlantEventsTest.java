package dev.plantstore.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantEventsContract;
import dev.plantstore.core.StoreUnavailableException;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryPlantEventsTest extends PlantEventsContract {

    @Override
    protected EventStore newStore() {
        var outbox = new MemoryOutbox(RECEIVERS);
        return new EventStore(new InMemoryPlantStore(outbox), outbox);
    }

    @Test
    void aWritePastTheLimitOfWaitingEventsIsRefusedAndChangesNothingUntilTheReceiverTakesSome() {
        var outbox = new MemoryOutbox(RECEIVERS);
        var store = new InMemoryPlantStore(outbox);
        long full = MemoryOutbox.CAPACITY;
        for (long id = 1; id <= full; id++) {
            assertInstanceOf(CreateResult.Created.class, store.create(new NewPlant(id, "Plant " + id)));
        }
        long next = full + 1;
        var refused = assertThrows(StoreUnavailableException.class, () -> store.create(new NewPlant(next, "Fern")));
        assertTrue(refused.getMessage().contains("limit of " + full), refused.getMessage());
        assertEquals(Optional.empty(), store.find(next), "a refused create stores nothing");
        assertThrows(StoreUnavailableException.class, () -> store.delete(1));
        assertTrue(store.find(1).isPresent(), "a refused delete removes nothing");
        assertEquals(full, outbox.backlogs().counted(RECEIVERS.get(0)).pending());

        for (String receiver : RECEIVERS) {
            List<PlantEvent> taken = outbox.claim(receiver, System.currentTimeMillis(), 1);
            outbox.delivered(taken);
        }
        assertInstanceOf(CreateResult.Created.class, store.create(new NewPlant(next, "Fern")));
    }
}
