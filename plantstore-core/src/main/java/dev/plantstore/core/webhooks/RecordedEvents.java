package dev.plantstore.core.webhooks;

import java.util.List;

/**
 * Where a store hands the events that a committed batch recorded and leased to this process, so that they are sent
 * from memory at once; their rows in {@code webhook_outbox} stay the durable record until they are delivered.
 */
public interface RecordedEvents {

    RecordedEvents NONE = new RecordedEvents() {
        @Override
        public boolean admits(String receiver) {
            return false;
        }

        @Override
        public void committed(List<PlantEvent> leased, boolean othersRecorded) {
        }

        @Override
        public void awaitRoom() {
        }
    };

    /**
     * Whether the events for {@code receiver} of the batch about to run may be leased to this process. While it answers
     * false, they are recorded unleased and wait to be claimed from the table.
     */
    boolean admits(String receiver);

    /**
     * A batch committed: {@code leased} are this process's to send now; {@code othersRecorded} says whether it also
     * recorded events left to a claim (unleased, or behind an earlier pending event of their plant).
     */
    void committed(List<PlantEvent> leased, boolean othersRecorded);

    /**
     * Called before a write: returns once the delivery has room for its events, or after a short bound. Delivery that
     * keeps pace with a receiver so holds the writes to the rate it sends at, where it would otherwise fall behind.
     */
    void awaitRoom();
}
