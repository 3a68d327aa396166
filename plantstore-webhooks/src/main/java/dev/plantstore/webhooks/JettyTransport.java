package dev.plantstore.webhooks;

import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
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
import org.eclipse.jetty.http.HttpDateTime;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;

/**
 * Requests to one receiver through the delivery's one Jetty {@link HttpClient} ({@link WebhookHttpClient}): each
 * request has one total time-out, which covers the name lookup, the connection, the TLS handshake, writing the request
 * and reading the answer. Redirects are not followed; the answer's head is bounded, and its body is read past, never
 * kept.
 */
final class JettyTransport implements Transport {

    /** How Jetty names one of its objects in a message: its class, then {@code @} and its hash in hexadecimal. */
    private static final Pattern NAMES_AN_OBJECT = Pattern.compile("\\w@\\p{XDigit}+");
    /** {@code Retry-After} as delay-seconds (RFC 9110): digits only. */
    private static final Pattern DELAY_SECONDS = Pattern.compile("[0-9]+");
    private static final Duration LONGEST_ASKED = Duration.ofSeconds(999_999_999_999L);

    private final URI target;
    private final Duration deadline;
    private final HttpClient client;

    /** Requests to {@code receiver} through {@code client}, each ended within {@code deadline}. */
    JettyTransport(HttpClient client, URI receiver, Duration deadline) {
        this.client = client;
        this.target = withoutUserInformation(receiver);
        this.deadline = deadline;
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

    /** Nothing of its own to close: the client, shared by every receiver, closes with the delivery. */
    @Override
    public void close() {
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
                response.abort(new RefusedAnswer(response.getStatus(), retryAfter(response)));
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
            return new Outcome.Answered(refused.status, refused.retryAfter);
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

    /**
     * The wait a {@code 429} or {@code 503} asks for in its {@code Retry-After}: seconds, or an HTTP date (read by
     * Jetty), from now; none for another status, or a value that is neither. A date in the past asks for no wait.
     */
    static Optional<Duration> retryAfter(Response response) {
        int status = response.getStatus();
        String value = response.getHeaders().get(HttpHeader.RETRY_AFTER);
        if (status != HttpStatus.TOO_MANY_REQUESTS_429 && status != HttpStatus.SERVICE_UNAVAILABLE_503
                || value == null) {
            return Optional.empty();
        }
        String given = value.strip();
        if (DELAY_SECONDS.matcher(given).matches()) {
            // More digits than a long holds is still a wait longer than any the delivery keeps to.
            return Optional.of(given.length() > 12 ? LONGEST_ASKED : Duration.ofSeconds(Long.parseLong(given)));
        }
        long at = HttpDateTime.parseToEpoch(given);
        return at < 0 ? Optional.empty()
                : Optional.of(Duration.ofMillis(Math.max(0, at - System.currentTimeMillis())));
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

    /** Ends the exchange of an answer that is not 2xx. */
    private static final class RefusedAnswer extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final transient Optional<Duration> retryAfter;

        RefusedAnswer(int status, Optional<Duration> retryAfter) {
            super("HTTP " + status, null, false, false);
            this.status = status;
            this.retryAfter = retryAfter;
        }
    }
}
