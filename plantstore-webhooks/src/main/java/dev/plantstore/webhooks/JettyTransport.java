package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.PlantEvent;
import java.io.EOFException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Requests to one receiver through Jetty's {@link HttpClient}: its pool keeps up to {@code most} connections alive,
 * its parser refuses a malformed answer (and closes that connection), and each request has one total time-out,
 * which covers the name lookup, the connection, the TLS handshake, writing the request and reading the answer.
 * Redirects are not followed; the answer's head is bounded, and its body is read past, never kept.
 */
final class JettyTransport implements Transport {

    /** How long an unused connection stays open: below the 5 s many servers keep one, so they rarely close it first. */
    static final Duration IDLE = Duration.ofSeconds(4);

    /**
     * The most bytes of an answer's head and of its chunked body's trailer, together, that Jetty's parser reads before
     * it fails the attempt. Without a bound, one receiver's answer could fill the heap. Real receivers answer with a
     * few hundred bytes; this is eight times the request head Jetty's server accepts by default, room for what
     * proxies and platforms add, while a receiver's 128 requests in flight hold 128 such heads (8 MiB) at most.
     */
    static final int MOST_HEAD_BYTES = 64 * 1024;

    /** How Jetty names one of its objects in a message: its class, then {@code @} and its hash in hexadecimal. */
    private static final Pattern NAMES_AN_OBJECT = Pattern.compile("\\w@\\p{XDigit}+");

    private final URI target;
    private final Duration deadline;
    private final HttpClient client;

    /**
     * Up to {@code most} requests at once to {@code receiver}, each ended within {@code deadline}; host names are
     * looked up by the client's own resolver, off the caller's thread, and TLS trusts what the JDK trusts, checking
     * the host name against the certificate.
     */
    JettyTransport(URI receiver, int most, Duration deadline) {
        this(receiver, most, deadline, Optional.empty(), new SslContextFactory.Client());
    }

    /**
     * As the other constructor, with host names looked up by {@code resolver} when one is given, and TLS as
     * {@code tls} says.
     */
    JettyTransport(URI receiver, int most, Duration deadline, Optional<SocketAddressResolver> resolver,
                   SslContextFactory.Client tls) {
        this.target = withoutUserInformation(receiver);
        this.deadline = deadline;
        String shown = DeliverySettings.receiverKey(receiver);
        var threads = new QueuedThreadPool(Math.max(8, Runtime.getRuntime().availableProcessors() * 2), 1);
        threads.setName("plantstore-webhook " + shown);
        threads.setDaemon(true);
        var connector = new ClientConnector();
        connector.setSslContextFactory(tls);
        connector.setExecutor(threads);
        this.client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setExecutor(threads);
        resolver.ifPresent(client::setSocketAddressResolver);
        client.setFollowRedirects(false);
        client.setMaxResponseHeadersSize(MOST_HEAD_BYTES);
        client.setMaxConnectionsPerDestination(most);
        // The delivery keeps at most that many requests in flight, so no more ever wait for a connection.
        client.setMaxRequestsQueuedPerDestination(most);
        client.setConnectTimeout(deadline.toMillis());
        client.setIdleTimeout(IDLE.toMillis());
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "plantstore"));
        client.addBean(new HandshakeDeadline(client, deadline));
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP client for webhooks to " + shown + " did not start", e);
        }
    }

    /** The URL that requests go to: user information is never sent, nor used as credentials. */
    private static URI withoutUserInformation(URI receiver) {
        String query = receiver.getRawQuery() == null ? "" : "?" + receiver.getRawQuery();
        String path = receiver.getRawPath() == null || receiver.getRawPath().isEmpty() ? "/" : receiver.getRawPath();
        String port = receiver.getPort() < 0 ? "" : ":" + receiver.getPort();
        return URI.create(receiver.getScheme() + "://" + receiver.getHost() + port + path + query);
    }

    @Override
    public void send(PlantEvent event, SignedRequest request, Ended ended) {
        send(new AnswerOf(event, request, ended, System.nanoTime() + deadline.toNanos()));
    }

    private void send(AnswerOf answer) {
        SignedRequest request = answer.request;
        client.newRequest(target)
                .method(HttpMethod.POST)
                .timeout(Math.max(1, answer.deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)
                .headers(headers -> {
                    headers.put("webhook-id", request.id())
                            .put("webhook-timestamp", Long.toString(request.timestampSeconds()))
                            .put("webhook-signature", request.signature());
                    request.trace().ifPresent(trace -> {
                        headers.put(AttemptSpans.TRACEPARENT, trace.traceparent());
                        trace.tracestate().ifPresent(state -> headers.put(AttemptSpans.TRACESTATE, state));
                    });
                })
                .body(new BytesRequestContent("application/json", request.body()))
                .send(answer);
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
     * Turns Jetty's result of an attempt into the event's outcome. A kept-alive connection that the receiver closed
     * while it was unused is found only when the request is written to it, and Jetty does not send a POST again: an
     * attempt whose connection ended before any byte of an answer is sent once more, on a new connection, within the
     * same deadline, which at-least-once delivery allows.
     */
    private final class AnswerOf implements Response.Listener {

        private final PlantEvent event;
        private final SignedRequest request;
        private final Ended ended;
        private final long deadlineNanos;
        private boolean sentAgain;

        AnswerOf(PlantEvent event, SignedRequest request, Ended ended, long deadlineNanos) {
            this.event = event;
            this.request = request;
            this.ended = ended;
            this.deadlineNanos = deadlineNanos;
        }

        /**
         * An answer other than 2xx fails its attempt whatever follows: its connection is closed rather than kept,
         * so nothing the receiver sent after it can be read as another request's answer.
         */
        @Override
        public void onHeaders(Response response) {
            if (!isSuccess(response.getStatus())) {
                response.abort(new RefusedAnswer(response.getStatus()));
            }
        }

        @Override
        public void onComplete(Result result) {
            if (!sentAgain && closedBeforeAnswer(result) && deadlineNanos - System.nanoTime() > 0) {
                sentAgain = true;
                send(this);
                return;
            }
            ended.ended(event, outcomeOf(result));
        }
    }

    private Outcome outcomeOf(Result result) {
        if (result.isSucceeded()) {
            return new Outcome.Answered(result.getResponse().getStatus());
        }
        Throwable failure = result.getFailure();
        if (failure instanceof RefusedAnswer refused) {
            return new Outcome.Answered(refused.status);
        }
        if (failure instanceof TimeoutException) {
            return new Outcome.Failed("no answer within " + deadline.toSeconds() + " s");
        }
        return new Outcome.Failed(describe(failure));
    }

    private static boolean closedBeforeAnswer(Result result) {
        Throwable failure = result.getFailure();
        return result.isFailed() && result.getResponse().getStatus() == 0
                && (failure instanceof EOFException || failure instanceof ClosedChannelException);
    }

    private static boolean isSuccess(int status) {
        return status >= 200 && status < 300;
    }

    /**
     * A failure as the receiver's state line and the attempt's span show it: its kind and message, never a stack trace
     * nor the dump of Jetty's objects that some of its messages hold.
     */
    static String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof UnknownHostException) {
                return "its host name could not be resolved";
            }
            if (cause instanceof HttpException refused) {
                return "bad answer: " + refused.getReason();
            }
            if (cause instanceof EOFException) {
                // Jetty's parser reports a bad message after the head (a trailer over the bound, say) so too.
                return "the connection ended before a complete answer";
            }
        }
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause && cause.getMessage() == null) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return message == null || NAMES_AN_OBJECT.matcher(message).find()
                ? cause.getClass().getSimpleName() : cause.getClass().getSimpleName() + ": " + message;
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

    /** Ends the exchange of an answer that is not 2xx. */
    private static final class RefusedAnswer extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        RefusedAnswer(int status) {
            super("HTTP " + status, null, false, false);
            this.status = status;
        }
    }
}
