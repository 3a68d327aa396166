package dev.plantstore.webhooks;

import dev.plantstore.core.EventSink;
import dev.plantstore.core.threads.DaemonThreads;
import dev.plantstore.core.webhooks.Delivery;
import dev.plantstore.core.webhooks.DeliveryProvider;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A second kind of destination beside webhooks, for the tests of a store with several: found as a service as a real
 * sink's module is, it claims its sink's events from the outbox and keeps them in memory, or, while the sink refuses,
 * puts them back for later.
 */
public final class RecordingSinkProvider implements DeliveryProvider {

    /** A sink in this process's memory: what it took, in the order it took it. */
    static final class RecordingSink implements EventSink {
        private final URI target;
        private final List<PlantEvent> taken = new ArrayList<>();
        private volatile boolean refusing;

        RecordingSink(String name) {
            this.target = URI.create("recording://" + name);
        }

        @Override
        public URI target() {
            return target;
        }

        void refuse(boolean refusing) {
            this.refusing = refusing;
        }

        synchronized List<String> taken() {
            return taken.stream().map(event -> event.type() + " " + event.plantId()).toList();
        }

        private synchronized void take(List<PlantEvent> events) {
            taken.addAll(events);
        }
    }

    public RecordingSinkProvider() {
        // For the service loader.
    }

    @Override
    public List<String> sendsTo(DeliverySettings settings) {
        return sinks(settings).stream().map(sink -> DeliverySettings.receiverKey(sink.target())).toList();
    }

    @Override
    public Delivery start(Outbox outbox, DeliverySettings settings) {
        List<Thread> workers = new ArrayList<>();
        for (RecordingSink sink : sinks(settings)) {
            String key = DeliverySettings.receiverKey(sink.target());
            Thread worker = DaemonThreads.named("recording " + key).newThread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    List<PlantEvent> page = outbox.claim(key, System.currentTimeMillis(), 100);
                    if (sink.refusing) {
                        outbox.reschedule(page, System.currentTimeMillis() + 20, true);
                    } else if (!page.isEmpty()) {
                        sink.take(page);
                        outbox.delivered(page);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
            });
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        return new Delivery() {
            @Override
            public void awaitRoom() {
                // Never holds a write: the tests are about sinks holding back each other, not the writes.
            }

            @Override
            public void close() {
                workers.forEach(Thread::interrupt);
                for (Thread worker : workers) {
                    try {
                        worker.join(5_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
    }

    private static List<RecordingSink> sinks(DeliverySettings settings) {
        return settings.sinks().stream()
                .filter(RecordingSink.class::isInstance).map(RecordingSink.class::cast).toList();
    }
}
