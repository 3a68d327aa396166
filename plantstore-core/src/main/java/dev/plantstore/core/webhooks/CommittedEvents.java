package dev.plantstore.core.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where a store publishes the events its committed writes recorded, to whatever subscribes (the delivery of each
 * provider started: every one hears of every commit and takes the events of its own destinations). One way: the store
 * hands the events on and reads which receivers' events it may lease to this process, a choice each subscriber sets
 * ahead of time for its own; it never calls into a subscriber for a decision, nor waits for it.
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

    /** How often a subscriber that keeps failing is logged, at most. */
    static final Duration LOG_EVERY = Duration.ofSeconds(10);
    private static final System.Logger LOG = System.getLogger(CommittedEvents.class.getName());

    private final Set<String> leasedHere = ConcurrentHashMap.newKeySet();
    private volatile long nextLogNanos = System.nanoTime();
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

    /** From now on, {@code subscriber} hears of every commit that recorded events, beside those subscribed before. */
    public void subscribe(Subscriber subscriber) {
        subscribers.add(Objects.requireNonNull(subscriber, "null subscriber"));
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

    /**
     * Hands a commit's events to each subscriber. What one throws is logged, at most every {@link #LOG_EVERY}, and
     * goes no further, not even to the next subscriber's turn: the write committed, and its events wait in the outbox
     * for a claim once their lease runs out.
     */
    public void publish(List<PlantEvent> leased, boolean othersRecorded) {
        for (Subscriber subscriber : subscribers) {
            tell(subscriber, leased, othersRecorded);
        }
    }

    private void tell(Subscriber subscriber, List<PlantEvent> leased, boolean othersRecorded) {
        try {
            subscriber.committed(leased, othersRecorded);
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            if (now - nextLogNanos >= 0) {
                nextLogNanos = now + LOG_EVERY.toNanos();
                LOG.log(System.Logger.Level.ERROR, "events: a delivery failed to take a commit's events; they "
                        + "wait in the outbox to be claimed", e);
            }
        }
    }
}
