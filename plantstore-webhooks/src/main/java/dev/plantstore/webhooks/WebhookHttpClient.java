package dev.plantstore.webhooks;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The one Jetty {@link HttpClient} through which every receiver's requests go, on one pool of threads named
 * {@value #THREADS} (a receiver's worker thread is named {@code plantstore-webhook <receiver>}). Its pool keeps up to
 * {@code perDestination} connections alive to each destination (scheme, host and port), and as many requests may
 * wait for one: a receiver's worker keeps at most {@value DeliveryLimits#IN_FLIGHT} in flight, so give it that many per
 * receiver, and no request ever waits for another receiver's. Its parser refuses a malformed answer (and closes that
 * connection).
 */
final class WebhookHttpClient implements Transports {

    static final String THREADS = "plantstore-delivery-http";

    /** How long an unused connection stays open: below the 5 s many servers keep one, so they rarely close it first. */
    static final Duration IDLE = Duration.ofSeconds(4);

    /**
     * The most bytes of an answer's head and of its chunked body's trailer, together, that Jetty's parser reads before
     * it fails the attempt. Without a bound, one receiver's answer could fill the heap. Real receivers answer with a
     * few hundred bytes; this is eight times the request head Jetty's server accepts by default, room for what
     * proxies and platforms add, while a receiver's 128 requests in flight hold 128 such heads (8 MiB) at most.
     */
    static final int MOST_HEAD_BYTES = 64 * 1024;

    private final HttpClient client;
    private final Duration deadline;

    /**
     * A started client: {@code perDestination} connections to a destination at most, each attempt ended within
     * {@code deadline}; host names looked up off the caller's thread; TLS as {@code tls} says (the JDK's trust and a
     * host name checked against the certificate, for a fresh {@code SslContextFactory.Client}).
     */
    WebhookHttpClient(int perDestination, Duration deadline, SslContextFactory.Client tls) {
        this.deadline = deadline;
        var threads = new QueuedThreadPool(Math.max(8, Runtime.getRuntime().availableProcessors() * 2), 1);
        threads.setName(THREADS);
        threads.setDaemon(true);
        var connector = new ClientConnector();
        connector.setSslContextFactory(tls);
        connector.setExecutor(threads);
        this.client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setExecutor(threads);
        client.setFollowRedirects(false);
        client.setMaxResponseHeadersSize(MOST_HEAD_BYTES);
        client.setMaxConnectionsPerDestination(perDestination);
        client.setMaxRequestsQueuedPerDestination(perDestination);
        client.setConnectTimeout(deadline.toMillis());
        client.setIdleTimeout(IDLE.toMillis());
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "plantstore"));
        client.addBean(new HandshakeDeadline(client, deadline));
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP client for webhooks did not start", e);
        }
    }

    @Override
    public Transport to(URI receiver) {
        return new JettyTransport(client, receiver, deadline);
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            // Stopping closes every connection; what it throws leaves nothing to undo.
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes a TLS connection whose handshake is not over within the deadline. A receiver that trickles its handshake
     * keeps the idle time-out from passing, and a connection that opens after its attempt ended belongs to no request
     * whose time-out would close it. Jetty hands every connection it opens to the client's listeners.
     */
    private record HandshakeDeadline(HttpClient client, Duration deadline) implements Connection.Listener {
        @Override
        public void onOpened(Connection connection) {
            if (connection instanceof SslConnection tls) {
                Scheduler.Task expiry = client.getScheduler().schedule(tls::close, deadline.toMillis(),
                        TimeUnit.MILLISECONDS);
                tls.addHandshakeListener(new SslHandshakeListener() {
                    @Override
                    public void handshakeSucceeded(Event event) {
                        expiry.cancel();
                    }

                    @Override
                    public void handshakeFailed(Event event, Throwable failure) {
                        expiry.cancel();
                    }
                });
            }
        }
    }
}
