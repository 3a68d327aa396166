package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.RetryPolicy;
import java.time.Duration;
import java.util.List;

/**
 * A receiver's state line ({@link State}) and its back-off while it fails, as the answers of its rounds of
 * attempts decide them. It logs when the receiver starts failing and when it recovers, and a summary every so often
 * while it fails, never each attempt.
 */
final class ReceiverHealth {

    /** Delivery's lines keep the logger name they have always had, which a logging configuration may name. */
    static final System.Logger LOG = System.getLogger("dev.plantstore.webhooks.ReceiverWorker");

    /** Where a receiver's worker stands, which decides where its events come from and how many go at once. */
    enum State {
        /**
         * The receiver answers and the worker keeps up: the events this process records are handed to it in memory
         * and sent at once, up to the requests in flight; events recorded elsewhere or due again are claimed from the
         * outbox.
         */
        KEEPING_UP,
        /**
         * The worker fell behind what this process records: every event goes through the outbox, oldest first, until
         * a claim finds no more than it can send and nothing waits in memory.
         */
        CATCHING_UP,
        /**
         * An attempt failed, and none has been delivered since: no event goes until the requests in flight have
         * ended, then one at a time, each after the back-off, until one is delivered.
         */
        FAILING,
        /**
         * The receiver answered {@code 410 Gone}: nothing is sent to it or recorded for it, on any instance of the
         * store, until an operator turns it on again.
         */
        TURNED_OFF
    }

    /** The longest a receiver's {@code Retry-After} holds its next attempt back; a longer one is cut to this. */
    static final Duration LONGEST_RETRY_AFTER = Duration.ofHours(1);

    private final String key;
    private final RetryPolicy retries;
    private volatile State state = State.KEEPING_UP;
    /** No attempt starts before this: the receiver asked so with {@code Retry-After}. */
    private long notBeforeMillis;
    /** Whether a {@code Retry-After} over the longest was said in the log since the receiver last recovered. */
    private boolean cutWaitLogged;
    /** Rounds in a row, each ended, in which every attempt failed; 0 unless {@link State#FAILING}. */
    private int failingRounds;
    private long failedAttempts;
    private String lastReason;
    private long nextProbeMillis;

    ReceiverHealth(String key, RetryPolicy retries) {
        this.key = key;
        this.retries = retries;
    }

    State state() {
        return state;
    }

    /** The worker is behind what this process records: its events go through the outbox until it caught up. */
    void fellBehind() {
        state = State.CATCHING_UP;
    }

    /** A claim found no more than it could send, and nothing waits in memory. */
    void caughtUp() {
        if (state == State.CATCHING_UP) {
            state = State.KEEPING_UP;
        }
    }

    /**
     * A failure thrown where none was expected (the outbox, the signer, a transport at fault) as the state lines show
     * it: its kind and message, and its causes' (a database's reason), never a stack trace.
     */
    static String describe(Throwable failure) {
        String shown = failure.getClass().getSimpleName()
                + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
        Throwable cause = failure.getCause();
        return cause == null || cause == failure ? shown : shown + " (" + describe(cause) + ")";
    }

    /** What a line about a receiver turned off tells the operator to do. */
    static String untilTurnedOn(String key) {
        return "nothing is sent to it or recorded for it until `java -jar plantstore.jar webhooks enable " + key
                + "` turns it on again";
    }

    /** The receiver is turned off: it stays so until {@link #turnedOn}. */
    void turnedOff() {
        state = State.TURNED_OFF;
    }

    /** An operator turned the receiver on again: what waits for it is claimed, as after a recovery. */
    void turnedOn() {
        state = State.CATCHING_UP;
        failingRounds = 0;
        failedAttempts = 0;
        notBeforeMillis = 0;
    }

    /** When a failing receiver is tried again. */
    long nextProbeMillis() {
        return nextProbeMillis;
    }

    /** Before this, no attempt at any of the receiver's events starts, whatever its state. */
    long notBeforeMillis() {
        return notBeforeMillis;
    }

    /**
     * An answer ({@code reason}) asked, with {@code Retry-After}, for {@code wait} before the next attempt: no attempt
     * starts before then, kept to at most {@link #LONGEST_RETRY_AFTER}. Returns when the next may start.
     */
    long askedToWait(Duration wait, String reason, long now) {
        Duration kept = wait;
        if (wait.compareTo(LONGEST_RETRY_AFTER) > 0) {
            kept = LONGEST_RETRY_AFTER;
            if (!cutWaitLogged) {
                cutWaitLogged = true;
                LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": " + reason + " asked for a wait of "
                        + wait.toSeconds() + " s (Retry-After); it waits " + LONGEST_RETRY_AFTER.toMinutes()
                        + " minutes, the longest it is held back");
            }
        }
        notBeforeMillis = Math.max(notBeforeMillis, now + kept.toMillis());
        return notBeforeMillis;
    }

    /** A probe found nothing to send: the next look waits the back-off. */
    void probedNothing(long now) {
        nextProbeMillis = Math.max(now + retries.backoffMillis(failingRounds), notBeforeMillis);
    }

    /**
     * The attempts that ended in one turn: {@code delivered} events and {@code failedReasons}, with {@code idle} when
     * no request is left in flight, which ends the round. Returns true when the receiver recovered, so that what waits
     * for it is claimed.
     */
    boolean attemptsEnded(int delivered, List<String> failedReasons, boolean idle, long now) {
        failedAttempts += failedReasons.size();
        if (!failedReasons.isEmpty()) {
            lastReason = failedReasons.get(failedReasons.size() - 1);
        }
        if (delivered > 0) {
            boolean recovered = state == State.FAILING;
            if (recovered) {
                LOG.log(System.Logger.Level.INFO, "webhooks to " + key + ": recovered after "
                        + failedAttempts + " failed attempts");
                state = State.CATCHING_UP;
            }
            failingRounds = 0;
            failedAttempts = 0;
            cutWaitLogged = false;
            return recovered;
        }
        boolean startsFailing = state != State.FAILING;
        state = State.FAILING;
        // The requests of a page that fails may end over several turns: the round ends with the last of them.
        if (idle) {
            failingRounds++;
        }
        nextProbeMillis = Math.max(now + retries.backoffMillis(failingRounds), notBeforeMillis);
        if (startsFailing && notBeforeMillis > now) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": failing (" + lastReason
                    + "); waiting " + (notBeforeMillis - now + 999) / 1_000
                    + " s before the next attempt, as its Retry-After asks");
        } else if (startsFailing) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": failing (" + lastReason
                    + "); retrying with back-off");
        } else if (idle && failingRounds > 1 && Integer.bitCount(failingRounds) == 1) {
            LOG.log(System.Logger.Level.WARNING, "webhooks to " + key + ": still failing, " + failedAttempts
                    + " failed attempts so far (last: " + lastReason + ")");
        }
        return false;
    }
}
