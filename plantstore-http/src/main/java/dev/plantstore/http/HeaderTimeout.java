package dev.plantstore.http;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.NanoTime;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection whose request line and headers are not complete {@code timeout} after the server first saw
 * them under way. The idle time-out alone does not end a client that sends one header byte now and then, and Jetty 12
 * has no deadline for a whole request head (its minimum data rate applies to bodies only), so this looks at every
 * open connection's parser every quarter of the time-out, yet at least once a second and at most once every 10 ms
 * (ten looks in the default 10 s). A look costs a pass over the open connections, at most {@code maxConnections}:
 * nothing per request.
 *
 * <p>It reads the state of Jetty's HTTP/1.1 connection ({@code HttpConnection} and its parser), which Jetty keeps in
 * an internal package; a Jetty upgrade that changes it fails this class's test.
 */
final class HeaderTimeout extends AbstractLifeCycle implements Runnable {

    /** A connection seen in the middle of a request head: which head (by requests received) and since when. */
    private record Started(long messagesIn, long sinceNanos) {
    }

    private final Server server;
    private final long timeoutNanos;
    private final long periodMillis;
    /** Touched only by the sweep, which runs on one scheduler thread at a time. */
    private Map<HttpConnection, Started> heads = new HashMap<>();
    private volatile Scheduler.Task next;

    HeaderTimeout(Server server, Duration timeout) {
        this.server = server;
        this.timeoutNanos = timeout.toNanos();
        this.periodMillis = Math.max(10, Math.min(1_000, timeout.toMillis() / 4));
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task task = next;
        if (task != null) {
            task.cancel();
        }
    }

    private void schedule() {
        if (isRunning() || isStarting()) {
            next = server.getScheduler().schedule(this, periodMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void run() {
        try {
            sweep();
        } finally {
            schedule();
        }
    }

    private void sweep() {
        long now = NanoTime.now();
        Map<HttpConnection, Started> stillInHead = new HashMap<>();
        for (Connector connector : server.getConnectors()) {
            if (!(connector instanceof AbstractConnector open)) {
                continue;
            }
            for (EndPoint endPoint : open.getConnectedEndPoints()) {
                if (!(endPoint.getConnection() instanceof HttpConnection http)
                        || http.getParser().isStart() || !http.getParser().inHeaderState()) {
                    continue;
                }
                Started seen = heads.get(http);
                if (seen == null || seen.messagesIn() != http.getMessagesIn()) {
                    seen = new Started(http.getMessagesIn(), now);
                }
                if (now - seen.sinceNanos() >= timeoutNanos) {
                    endPoint.close();
                } else {
                    stillInHead.put(http, seen);
                }
            }
        }
        heads = stillInHead;
    }
}
