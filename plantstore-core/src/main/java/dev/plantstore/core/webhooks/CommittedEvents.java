package dev.plantstore.core.webhooks;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a store publishes the events its committed writes recorded, to whatever subscribes (the delivery). One way:
 * the store hands the events on and reads which receivers' events it may lease to this process, a choice the
 * subscriber sets ahead of time; it never calls into the subscriber for a decision, nor waits for it.
 */
public final class CommittedEvents {

    /** What hears of the events: called on the thread that committed them, so it takes them and returns at once. */
    @FunctionalInterface
    public interface Subscriber {
        /**
         * A write, or a batch of them, committed: {@code leased} are this process's to send now; {@code othersRecorded}
         * says whether it also recorded events left to a claim (unleased, or behind an earlier pending event of their
         * plant).
         */
        void committed(List<PlantEvent> leased, boolean othersRecorded);
    }

    private final Set<String> leasedHere = ConcurrentHashMap.newKeySet();
    private volatile Subscriber subscriber = (leased, othersRecorded) -> { };

    /** From now on, {@code subscriber} hears of every commit that recorded events. */
    public void subscribe(Subscriber subscriber) {
        this.subscriber = subscriber;
    }

    /**
     * Whether the events for {@code receiver} that the next writes record are leased to this process, to be sent from
     * memory. While not, they are recorded unleased and wait to be claimed from the outbox. None is, until said.
     */
    public void leaseHere(String receiver, boolean leased) {
        if (leased) {
            leasedHere.add(receiver);
        } else {
            leasedHere.remove(receiver);
        }
    }

    /** Whether a write about to run leases {@code receiver}'s events to this process. */
    public boolean leasedHere(String receiver) {
        return leasedHere.contains(receiver);
    }

    /** Hands a commit's events to the subscriber. */
    public void publish(List<PlantEvent> leased, boolean othersRecorded) {
        subscriber.committed(leased, othersRecorded);
    }
}
