package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.Delivery;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WritePacing;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Sends the outbox's events to their receivers: a {@link ReceiverWorker} per receiver, so a receiver that is slow or
 * down holds up only its own events, and never its store's health. How an event goes out, in order: the
 * store's batch commits and publishes its events; {@link #committed} hands those leased to this process to their
 * workers (the others wait for a claim); the receiver's worker takes them from its {@link ReceiverFeed}, and its
 * {@link Dispatcher} signs each ({@link WebhookSigner}) and sends it through its {@link Transport}
 * ({@link JettyTransport}, on the one {@link WebhookHttpClient}); the answer settles the event ({@link Settlement}),
 * delivered or due again as {@link RetryPolicy} says; meanwhile {@link WritePacing} holds the writes back, in front of
 * the store, while the receiver keeps pace.
 */
final class WebhookDelivery implements Delivery {

    private final Map<String, ReceiverWorker> workers = new LinkedHashMap<>();
    private final List<WritePacing> pacings = new ArrayList<>();
    private final Transports transports;

    private WebhookDelivery(Transports transports) {
        this.transports = transports;
    }

    /**
     * Starts a worker per receiver of {@code settings}, each sending through what {@code transports} makes, its
     * attempts traced by {@code openTelemetry}, subscribed to the events the outbox's store publishes.
     */
    static WebhookDelivery start(Outbox outbox, DeliverySettings settings,
                                 Transports transports, OpenTelemetry openTelemetry) {
        Objects.requireNonNull(outbox, "null outbox");
        var delivery = new WebhookDelivery(transports);
        var signer = new WebhookSigner(settings.secrets());
        var retries = new RetryPolicy(settings.firstRetry(), settings.retryPeriod());
        try {
            for (URI receiver : settings.receivers()) {
                delivery.workers.put(DeliverySettings.receiverKey(receiver), new ReceiverWorker(receiver, outbox,
                        transports.to(receiver), signer, retries, settings.listener(), openTelemetry));
            }
        } catch (RuntimeException e) {
            delivery.close();
            throw e;
        }
        delivery.workers.values().forEach(worker -> delivery.pacings.add(worker.pacing()));
        outbox.committed().subscribe(delivery::committed);
        delivery.workers.values().forEach(ReceiverWorker::start);
        return delivery;
    }

    /** On the thread that committed: hands the leased events to their workers, and wakes every worker. */
    private void committed(List<PlantEvent> leased, boolean othersRecorded) {
        for (PlantEvent event : leased) {
            ReceiverWorker worker = workers.get(event.receiver());
            if (worker != null) {
                worker.take(event);
            }
        }
        for (ReceiverWorker worker : workers.values()) {
            worker.wake(othersRecorded);
        }
    }

    /**
     * Admission in front of a write: waits while a receiver has too many events recorded and not yet sent
     * ({@link WritePacing}), at most {@link WritePacing#LONGEST_WRITE_WAIT} in all.
     */
    @Override
    public void awaitRoom() {
        WritePacing.awaitEach(pacings);
    }

    @Override
    public void close() {
        workers.values().forEach(ReceiverWorker::stop);
        workers.values().forEach(ReceiverWorker::awaitStopped);
        transports.close();
    }
}
