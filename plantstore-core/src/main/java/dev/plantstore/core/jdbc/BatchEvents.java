package dev.plantstore.core.jdbc;

import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhook events a batch records in {@code webhook_outbox}: one row per receiver for each create that stored a
 * plant and each delete that removed one, which the dialect's SQL ({@link StoreSql#commit}) writes in the batch's
 * transaction, so that the event commits, or rolls back, with the write it reports. With no receiver a batch records
 * nothing, and costs what it did without webhooks.
 */
final class BatchEvents {

    private final List<String> receivers;
    private final CommittedEvents committed;

    BatchEvents(List<String> receivers, CommittedEvents committed) {
        this.receivers = List.copyOf(receivers);
        this.committed = committed;
    }

    boolean records() {
        return !receivers.isEmpty();
    }

    /** The events of one batch, from its start to its commit. */
    Batch batch() {
        long now = System.currentTimeMillis();
        return new Batch(now, receivers.stream()
                .map(receiver -> committed.leasedHere(receiver) ? now + Outbox.LEASE.toMillis() : 0L).toList());
    }

    /**
     * The events one batch records: when they are recorded, until when each receiver's are leased to this process (0
     * when they are not), and, once the database has written them, what it made of them. The dialect's SQL writes
     * them ({@link StoreSql#commit}) in the batch's transaction.
     */
    final class Batch {

        private final long recordedAtMillis;
        private final List<Long> leasedUntilMillis;
        private final List<PlantEvent> written = new ArrayList<>();

        private Batch(long recordedAtMillis, List<Long> leasedUntilMillis) {
            this.recordedAtMillis = recordedAtMillis;
            this.leasedUntilMillis = leasedUntilMillis;
        }

        /** Whether the batch records events: false with no receiver, when it adds nothing to the transaction. */
        boolean records() {
            return BatchEvents.this.records();
        }

        long recordedAtMillis() {
            return recordedAtMillis;
        }

        /** The receivers, each with an event per write that takes effect. */
        List<String> receivers() {
            return receivers;
        }

        /** Until when the events of each receiver, in the order of {@link #receivers()}, are leased here; 0 if not. */
        List<Long> leasedUntilMillis() {
            return leasedUntilMillis;
        }

        /** Where the SQL puts the events the database wrote, as it read them back. */
        List<PlantEvent> written() {
            return written;
        }

        /** The batch committed: its events are published, the leased ones to be sent from memory. */
        void committed() {
            if (written.isEmpty()) {
                return;
            }
            List<PlantEvent> leased = new ArrayList<>(written.size());
            for (PlantEvent event : written) {
                if (event.leasedUntilMillis() > 0) {
                    leased.add(event);
                }
            }
            committed.publish(leased, leased.size() < written.size());
        }
    }
}
