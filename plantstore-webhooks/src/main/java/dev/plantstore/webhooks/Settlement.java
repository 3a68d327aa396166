package dev.plantstore.webhooks;

import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.webhooks.DeliveryReport;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Settles the attempts that ended: a delivered event leaves the outbox with the next batch of removals; a failed one
 * is due again after the back-off, and not before its receiver's {@code Retry-After} asked, or, past its retry period,
 * given up on ({@link RetryPolicy}); a {@code 410 Gone} turns the receiver off. What ended tells the receiver's health
 * and its {@link RateCeiling}, and the listener hears of each outcome.
 */
final class Settlement {

    private final String key;
    private final Outbox outbox;
    private final RetryPolicy retries;
    private final ReceiverFeed feed;
    private final ReceiverHealth health;
    private final DeliveryReport report;
    private final Optional<RateCeiling> ceiling;

    Settlement(String key, Outbox outbox, RetryPolicy retries, ReceiverFeed feed, ReceiverHealth health,
               DeliveryReport report, Optional<RateCeiling> ceiling) {
        this.key = key;
        this.outbox = outbox;
        this.retries = retries;
        this.feed = feed;
        this.health = health;
        this.report = report;
        this.ceiling = ceiling;
    }

    /** Takes in the attempts that ended since the last turn. */
    void settle(Dispatcher dispatcher, long now) {
        int delivered = 0;
        List<Dispatcher.Attempt> failed = new ArrayList<>();
        Dispatcher.Attempt attempt;
        while ((attempt = dispatcher.nextEnded()) != null) {
            ceiling.ifPresent(limit -> limit.ended(System.nanoTime()));
            if (attempt.delivered()) {
                delivered++;
                feed.delivered(attempt.event());
                report.attempted(WebhookListener.Outcome.DELIVERED);
                report.delivered(attempt.endedAtMillis() - attempt.event().recordedAtMillis());
            } else {
                failed.add(attempt);
            }
        }
        if (health.state() != ReceiverHealth.State.TURNED_OFF && failed.stream().anyMatch(Dispatcher.Attempt::gone)) {
            turnOff(now);
        }
        if (health.state() == ReceiverHealth.State.TURNED_OFF) {
            // Their events were given up on with the receiver.
            failed.forEach(failure -> report.attempted(WebhookListener.Outcome.UNDELIVERABLE));
            feed.removeDeliveredWhenDue();
            return;
        }
        for (Dispatcher.Attempt failure : failed) {
            long notBefore = failure.retryAfter()
                    .map(wait -> health.askedToWait(wait, failure.reason(), now)).orElse(0L);
            retryOrGiveUp(failure, now, notBefore);
        }
        feed.removeDeliveredWhenDue();
        if ((delivered > 0 || !failed.isEmpty()) && health.attemptsEnded(delivered,
                failed.stream().map(Dispatcher.Attempt::reason).toList(), dispatcher.idle(), now)) {
            // Recovered: what waited for the receiver in the outbox is claimed.
            feed.othersRecorded();
        }
    }

    /** The receiver answered {@code 410 Gone}: it is turned off, and its pending events are given up on. */
    private void turnOff(long now) {
        int kept = outbox.turnOff(key, now);
        health.turnedOff();
        report.turnedOff(true);
        ReceiverHealth.LOG.log(System.Logger.Level.ERROR, "webhooks to " + key + ": answered 410 Gone, so it is "
                + "turned off: " + ReceiverHealth.untilTurnedOn(key) + "; its " + kept + " pending events are "
                + "undeliverable (`webhooks redeliver` sends them again)");
    }

    /** A failed attempt's event is due again after the back-off, and not before {@code notBefore}. */
    private void retryOrGiveUp(Dispatcher.Attempt attempt, long now, long notBefore) {
        PlantEvent event = attempt.event();
        if (retries.givesUp(event.retryFromMillis(), now)) {
            outbox.giveUp(List.of(event));
            report.attempted(WebhookListener.Outcome.UNDELIVERABLE);
            ReceiverHealth.LOG.log(System.Logger.Level.ERROR, "webhooks to " + key + ": event "
                    + event.messageId() + " (" + event.type() + " of plant " + event.plantId()
                    + ") is undeliverable after " + (event.attempts() + 1) + " attempts over "
                    + retries.retryPeriod() + " (last: " + attempt.reason()
                    + "); it is no longer retried");
        } else {
            outbox.reschedule(List.of(event), Math.max(now + retries.backoffMillis(event.attempts() + 1), notBefore),
                    true);
            report.attempted(WebhookListener.Outcome.FAILED);
        }
    }
}
