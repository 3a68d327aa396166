package dev.plantstore.core;

class InMemoryPlantEventsTest extends PlantEventsContract {

    @Override
    protected EventStore newStore() {
        var outbox = new MemoryOutbox(RECEIVERS);
        return new EventStore(new InMemoryPlantStore(outbox), outbox);
    }
}
