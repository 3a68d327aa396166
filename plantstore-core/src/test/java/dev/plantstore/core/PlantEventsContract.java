package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.Outbox.Backlogs;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What every store records for webhooks: an event for each write that took effect, none for any other. */
public abstract class PlantEventsContract {

    public static final List<String> RECEIVERS = List.of("http://a.example/hook", "http://b.example/hook");

    private final List<AutoCloseable> opened = new ArrayList<>();

    /** A new, empty store that records events for {@link #RECEIVERS}, and delivers none of them itself. */
    protected abstract EventStore newStore() throws Exception;

    /** A store and the outbox its events go to. */
    public record EventStore(PlantStore store, Outbox outbox) {
    }

    protected EventStore open() throws Exception {
        return closedAfterTheTest(newStore());
    }

    protected EventStore closedAfterTheTest(EventStore store) {
        opened.add(store.store());
        return store;
    }

    @AfterEach
    void closeStores() throws Exception {
        for (AutoCloseable store : opened) {
            store.close();
        }
    }

    /** Every pending event of {@code receiver}, marking each delivered as it goes, in the order a worker gets them. */
    public static List<String> drain(Outbox outbox, String receiver) {
        return drainEvents(outbox, receiver).stream().map(PlantEventsContract::describe).toList();
    }

    private static List<PlantEvent> drainEvents(Outbox outbox, String receiver) {
        List<PlantEvent> events = new ArrayList<>();
        while (true) {
            List<PlantEvent> page = outbox.claim(receiver, Long.MAX_VALUE / 2, 7);
            if (page.isEmpty()) {
                return events;
            }
            events.addAll(page);
            outbox.delivered(page);
        }
    }

    public static String describe(PlantEvent event) {
        return event.type() + " " + event.plantId() + (event.plant() == null ? "" : " " + event.plant().name());
    }

    @Test
    void aCreateThatStoresAPlantAndADeleteThatRemovesOneAreRecordedForEveryReceiver() throws Exception {
        EventStore events = open();
        events.store().create(new NewPlant(1, "Monstera", "aroid"));
        events.store().delete(1);
        for (String receiver : RECEIVERS) {
            assertEquals(List.of("plant.created 1 Monstera", "plant.deleted 1"), drain(events.outbox(), receiver));
        }
    }

    @Test
    void aSubscriberThatThrowsTurnsNoCommittedWriteIntoAFailureAndLosesNoEvent() throws Exception {
        EventStore events = open();
        events.outbox().committed().subscribe((leased, othersRecorded) -> {
            throw new IllegalStateException("a broken subscriber");
        });
        assertEquals(new CreateResult.Created(new Plant("Monstera", null)),
                events.store().create(new NewPlant(1, "Monstera")));
        assertTrue(events.store().delete(1));
        assertEquals(List.of("plant.created 1 Monstera", "plant.deleted 1"), drain(events.outbox(), RECEIVERS.get(0)));
    }

    @Test
    void everySubscriberHearsEachCommitThoughAnEarlierOneThrows() throws Exception {
        EventStore events = open();
        events.outbox().committed().subscribe((leased, othersRecorded) -> {
            throw new IllegalStateException("a broken subscriber");
        });
        List<Boolean> heard = new CopyOnWriteArrayList<>();
        events.outbox().committed().subscribe((leased, othersRecorded) -> heard.add(othersRecorded));
        events.store().create(new NewPlant(1, "Monstera"));
        assertEquals(List.of(true), heard);
    }

    @Test
    void theEventCarriesThePlantAsStored() throws Exception {
        EventStore events = open();
        events.store().create(new NewPlant(4, "Fern", "pteridophyte"));
        events.store().create(new NewPlant(5, "Moss"));
        List<PlantEvent> page = events.outbox().claim(RECEIVERS.get(0), Long.MAX_VALUE / 2, 10);
        assertEquals(2, page.size());
        assertEquals(new Plant("Fern", "pteridophyte"), page.get(0).plant());
        assertEquals(new Plant("Moss", null), page.get(1).plant());
        assertTrue(page.get(0).recordedAtMillis() > 0);
        assertEquals(RECEIVERS.get(0), page.get(0).receiver());
    }

    @Test
    void eachEventKeepsTheTraceOfItsWrite() throws Exception {
        EventStore events = open();
        TraceContext createTrace = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                Optional.of("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"));
        TraceContext deleteTrace = new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
                Optional.empty());
        events.store().create(new NewPlant(1, "Monstera"), createTrace);
        events.store().delete(1, deleteTrace);
        events.store().create(new NewPlant(2, "Fern"));
        for (String receiver : RECEIVERS) {
            Map<String, Optional<TraceContext>> traces = new TreeMap<>();
            drainEvents(events.outbox(), receiver).forEach(event -> traces.put(describe(event), event.trace()));
            assertEquals(Map.of("plant.created 1 Monstera", Optional.of(createTrace),
                    "plant.deleted 1", Optional.of(deleteTrace),
                    "plant.created 2 Fern", Optional.empty()), traces, receiver);
        }
    }

    @Test
    void concurrentWritesCommittedTogetherEachKeepTheirOwnTrace() throws Exception {
        EventStore events = open();
        int ids = 8;
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int write = 0; write < 8 * ids; write++) {
                long id = write % ids;
                boolean create = write / ids % 2 == 0;
                TraceContext trace = traceNumbered(write);
                writes.add(pool.submit(() -> create ? events.store().create(new NewPlant(id, "Plant"), trace)
                        : events.store().delete(id, trace)));
            }
            for (Future<?> write : writes) {
                write.get();
            }
        } finally {
            pool.shutdown();
        }
        List<PlantEvent> recorded = drainEvents(events.outbox(), RECEIVERS.get(0));
        assertTrue(recorded.size() >= ids, "every id was created at least once: " + recorded.size());
        for (PlantEvent event : recorded) {
            int write = Integer.parseInt(event.trace().orElseThrow().traceparent().substring(3, 35));
            assertEquals(write % ids, event.plantId(), describe(event) + " has the trace of write " + write);
            assertEquals(write / ids % 2 == 0 ? PlantEvent.CREATED : PlantEvent.DELETED, event.type(),
                    describe(event) + " has the trace of write " + write);
        }
    }

    private static TraceContext traceNumbered(int number) {
        return new TraceContext("00-%032d-00f067aa0ba902b7-01".formatted(number), Optional.empty());
    }

    @Test
    void writesThatChangeNothingRecordNothing() throws Exception {
        EventStore events = open();
        events.store().create(new NewPlant(1, "Monstera", "aroid"));
        drain(events.outbox(), RECEIVERS.get(0));
        drain(events.outbox(), RECEIVERS.get(1));
        assertEquals(CreateResult.AlreadyStored.class,
                events.store().create(new NewPlant(1, "Monstera", "aroid")).getClass());
        assertEquals(CreateResult.Duplicate.class, events.store().create(new NewPlant(1, "Fern")).getClass());
        assertEquals(false, events.store().delete(2));
        assertEquals(List.of(), drain(events.outbox(), RECEIVERS.get(0)));
        assertEquals(List.of(), drain(events.outbox(), RECEIVERS.get(1)));
    }

    @Test
    void anIdDeletedAndCreatedAgainRecordsEachWriteInOrder() throws Exception {
        EventStore events = open();
        events.store().create(new NewPlant(1, "Monstera"));
        events.store().delete(1);
        events.store().create(new NewPlant(1, "Fern"));
        assertEquals(List.of("plant.created 1 Monstera", "plant.deleted 1", "plant.created 1 Fern"),
                drain(events.outbox(), RECEIVERS.get(0)));
    }

    @Test
    void eventsOfOneIdUnderConcurrentWritesFollowTheOrderTheWritesTookEffect() throws Exception {
        EventStore events = open();
        int ids = 20;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int round = 0; round < 10; round++) {
                for (int id = 0; id < ids; id++) {
                    long plantId = id;
                    writes.add(pool.submit(() -> events.store().create(new NewPlant(plantId, "P"))));
                    writes.add(pool.submit(() -> events.store().delete(plantId)));
                }
            }
            for (Future<?> write : writes) {
                write.get();
            }
        } finally {
            pool.shutdown();
        }
        Map<Long, List<String>> byId = new TreeMap<>();
        for (String event : drain(events.outbox(), RECEIVERS.get(0))) {
            String[] parts = event.split(" ");
            byId.computeIfAbsent(Long.parseLong(parts[1]), id -> new ArrayList<>()).add(parts[0]);
        }
        for (var entry : byId.entrySet()) {
            List<String> ofId = entry.getValue();
            for (int i = 0; i < ofId.size(); i++) {
                assertEquals(i % 2 == 0 ? "plant.created" : "plant.deleted", ofId.get(i),
                        "events of id " + entry.getKey() + ": " + ofId);
            }
            boolean stored = events.store().find(entry.getKey()).isPresent();
            assertEquals(stored, ofId.size() % 2 == 1,
                    "the last event of id " + entry.getKey() + " says what is stored");
        }
    }

    @Test
    void anEventWaitsWhileAnEarlierEventOfItsIdIsPendingAndOtherIdsProceed() throws Exception {
        EventStore events = open();
        String receiver = RECEIVERS.get(0);
        events.store().create(new NewPlant(1, "Monstera"));
        events.store().delete(1);
        events.store().create(new NewPlant(2, "Fern"));
        List<PlantEvent> first = events.outbox().claim(receiver, Long.MAX_VALUE / 2, 10);
        assertEquals(List.of("plant.created 1 Monstera", "plant.created 2 Fern"),
                first.stream().map(PlantEventsContract::describe).toList());
        events.outbox().reschedule(List.of(first.get(0)), 0, true);
        events.outbox().delivered(List.of(first.get(1)));
        List<PlantEvent> second = events.outbox().claim(receiver, Long.MAX_VALUE / 2, 10);
        assertEquals(List.of("plant.created 1 Monstera"), second.stream().map(PlantEventsContract::describe).toList());
        assertEquals(first.get(0).seq(), second.get(0).seq(), "a retry is the same event");
        events.outbox().giveUp(List.of(second.get(0)));
        assertEquals(List.of("plant.deleted 1"), drain(events.outbox(), receiver),
                "an event given up on no longer holds back the next of its id");
    }

    @Test
    void aClaimedEventIsNotClaimedAgainUntilItsRetryIsDue() throws Exception {
        EventStore events = open();
        String receiver = RECEIVERS.get(0);
        events.store().create(new NewPlant(1, "Monstera"));
        long now = System.currentTimeMillis();
        List<PlantEvent> claimed = events.outbox().claim(receiver, now, 10);
        assertEquals(1, claimed.size());
        assertEquals(List.of(), events.outbox().claim(receiver, now, 10), "leased to the first claim");
        events.outbox().reschedule(List.of(claimed.get(0)), now + 60_000, true);
        assertEquals(List.of(), events.outbox().claim(receiver, now + 1_000, 10), "not yet due");
        List<PlantEvent> due = events.outbox().claim(receiver, now + 61_000, 10);
        assertEquals(1, due.size());
        assertEquals(1, due.get(0).attempts());
    }

    @Test
    void theBacklogCountsPendingEventsAndTheOldest() throws Exception {
        EventStore events = open();
        String receiver = RECEIVERS.get(0);
        assertEquals(new Backlogs.Backlog(0, 0), events.outbox().backlogs().counted(receiver));
        long before = System.currentTimeMillis();
        events.store().create(new NewPlant(1, "Monstera"));
        events.store().create(new NewPlant(2, "Fern"));
        Backlogs.Backlog backlog = events.outbox().backlogs().counted(receiver);
        assertEquals(2, backlog.pending());
        assertTrue(backlog.oldestRecordedAtMillis() >= before - 1_000, backlog.toString());
        List<PlantEvent> page = events.outbox().claim(receiver, Long.MAX_VALUE / 2, 1);
        events.outbox().giveUp(List.of(page.get(0)));
        assertEquals(1, events.outbox().backlogs().counted(receiver).pending(),
                "an event given up on is no longer pending");
    }
}
