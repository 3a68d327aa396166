package dev.plantstore.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The load the tests against the jar put on a server: clients on threads of their own, each taking its next step (a
 * request, or a few) as soon as the last one is answered, until its step says it is done or the load is closed. A step
 * that throws ends its client, and waiting for the clients rethrows the first such failure, so that no client fails
 * unseen. The benchmark's loads are {@code wrk}'s, which a JVM on the same cores could not match.
 */
public final class ClosedLoopClients implements AutoCloseable {

    /** How long closing waits for a client to finish the step it is in. */
    private static final long STOP_LIMIT_MILLIS = TimeUnit.SECONDS.toMillis(30);

    /** One client's step. */
    @FunctionalInterface
    public interface Step {
        /**
         * Takes the step.
         *
         * @param client the client's number, from 0
         * @param step   how many steps this client took before this one, so that ids derived from the two are its own
         * @return whether the client goes on to another step
         */
        boolean take(int client, long step) throws Exception;
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private final List<Thread> clients = new ArrayList<>();

    private ClosedLoopClients(String name, int count, Step step) {
        for (int client = 0; client < count; client++) {
            int number = client;
            Thread thread = new Thread(() -> loop(number, step), name + "-" + client);
            clients.add(thread);
        }
        clients.forEach(Thread::start);
    }

    /** {@code count} clients, named after {@code name}, each taking step after step until it or the load ends. */
    public static ClosedLoopClients start(String name, int count, Step step) {
        return new ClosedLoopClients(name, count, step);
    }

    /** Runs {@code count} clients until each one's {@code step} says it is done, then rethrows a failure if one had. */
    public static void runUntilDone(String name, int count, Step step) throws InterruptedException {
        var load = start(name, count, step);
        for (Thread client : load.clients) {
            client.join();
        }
        load.rethrowFailure();
    }

    private void loop(int client, Step step) {
        try {
            boolean goesOn = true;
            for (long taken = 0; goesOn && running.get(); taken++) {
                goesOn = step.take(client, taken);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | AssertionError e) {
            firstFailure.compareAndSet(null, e);
        }
    }

    /**
     * Stops the clients after the step each is in, waits for them, and rethrows the first failure of a step.
     *
     * @throws AssertionError when a client failed, or did not end within 30 s of the stop
     */
    @Override
    public void close() {
        running.set(false);
        try {
            for (Thread client : clients) {
                client.join(STOP_LIMIT_MILLIS);
                if (client.isAlive()) {
                    clients.forEach(Thread::interrupt);
                    throw new AssertionError(client.getName() + " did not end within 30 s of the stop");
                }
            }
        } catch (InterruptedException e) {
            clients.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the clients stopped", e);
        }
        rethrowFailure();
    }

    private void rethrowFailure() {
        Throwable failure = firstFailure.get();
        if (failure instanceof AssertionError assertion) {
            throw assertion;
        }
        if (failure != null) {
            throw new AssertionError("a client's step failed: " + failure, failure);
        }
    }
}
