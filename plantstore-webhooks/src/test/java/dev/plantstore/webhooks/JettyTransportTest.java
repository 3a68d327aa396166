package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.testkit.LocalhostKeys;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.ScriptedReceiver;
import dev.plantstore.testkit.ScriptedReceiver.Answer;
import dev.plantstore.testkit.ScriptedReceiver.Then;
import dev.plantstore.testkit.Sockets;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP/1.1 connections that carry webhooks, against a receiver whose every byte the test decides. */
class JettyTransportTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(10);
    private static final String NO_CONTENT = "HTTP/1.1 204 No Content\r\n\r\n";
    /** 512 times the bound: no real receiver's head comes near it. */
    private static final long HUGE = 32L << 20;

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final Map<Long, Transport.Outcome> outcomes = new ConcurrentHashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable resource : closing) {
            resource.close();
        }
    }

    @Test
    void requestsGoOnKeptAliveConnectionsNoMoreThanTheBoundAtOnce() throws Exception {
        var receiver = receiver(NO_CONTENT);
        var transport = transport(receiver.url(), 4, Duration.ofSeconds(5));
        // Its caller keeps as many requests in flight as the bound, as the delivery does.
        for (long seq = 1; seq <= 400; seq++) {
            send(transport, seq);
            if (seq % 4 == 0) {
                awaitOutcomes((int) seq);
            }
        }
        outcomes.values().forEach(outcome -> assertEquals(new Transport.Outcome.Answered(204), outcome));
        assertTrue(receiver.accepted() <= 4, "connections opened: " + receiver.accepted());
        assertTrue(receiver.mostAtOnce() <= 4, "requests at once: " + receiver.mostAtOnce());
    }

    @Test
    void aBurstWhileAConnectionIsIdleGetsAConnectionPerRequestUpToTheBound() throws Exception {
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> {
            if (request.index() > 0) {
                // A receiver that takes its time, so that the burst's requests overlap.
                LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            }
            return Answer.accepting(NO_CONTENT, Then.KEEP);
        });
        var transport = transport(receiver.url(), 8, Duration.ofSeconds(5));
        send(transport, 1);
        awaitOutcomes(1);
        for (long seq = 2; seq <= 9; seq++) {
            send(transport, seq);
        }
        awaitOutcomes(9);
        assertEquals(8, receiver.mostAtOnce(), "requests at once");
    }

    @Test
    void theRequestIsAPostWithItsLengthHostAndTargetAndNoUserInformation() throws Exception {
        var receiver = receiver(NO_CONTENT);
        var url = URI.create("http://user:secret@127.0.0.1:" + receiver.port() + "/hooks/plants?tenant=a%20b");
        send(transport(url, 1, Duration.ofSeconds(5)), 1);
        awaitOutcomes(1);
        String request = receiver.requests().get(0).raw();
        String lower = request.toLowerCase(Locale.ROOT);
        assertTrue(request.startsWith("POST /hooks/plants?tenant=a%20b HTTP/1.1\r\n"), request);
        assertTrue(lower.contains("\r\nhost: 127.0.0.1:" + receiver.port() + "\r\n"), request);
        assertTrue(lower.contains("\r\ncontent-length: 7\r\n"), request);
        assertTrue(lower.contains("\r\ncontent-type: application/json\r\n"), request);
        assertTrue(lower.contains("\r\nwebhook-id: msg_1\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\nevent 1"), request);
        assertFalse(request.contains("secret") || lower.contains("authorization"), request);
    }

    @Test
    void answersWithABodyChunkedOrCountedAreReadPastAndTheConnectionKept() throws Exception {
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> Answer.accepting(request.index() % 2 == 0
                ? "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                : "HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n", Then.KEEP));
        var transport = transport(receiver.url(), 1, Duration.ofSeconds(5));
        for (long seq = 1; seq <= 10; seq++) {
            send(transport, seq);
            awaitOutcomes((int) seq);
        }
        assertEquals(1, receiver.accepted());
        assertEquals(new Transport.Outcome.Answered(200), outcomes.get(1L));
        assertEquals(new Transport.Outcome.Answered(202), outcomes.get(2L));
    }

    @Test
    void aRetryAfterOfA429OrA503IsReadAsSecondsOrAnHttpDateAndOfOtherAnswersNot() throws Exception {
        String inTwoMinutes = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120));
        List<String> answers = List.of(
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 503 Busy\r\nRetry-After: " + inTwoMinutes + "\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 503 Busy\r\nRetry-After: soon\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 500 Oops\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 99999999999999999999\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 503 Busy\r\nRetry-After: Thu, 01 Jan 2015 00:00:00 GMT\r\nContent-Length: 0\r\n\r\n");
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> Answer.accepting(answers.get(request.index()), Then.CLOSE));
        var transport = transport(receiver.url(), 1, Duration.ofSeconds(5));
        for (long seq = 1; seq <= answers.size(); seq++) {
            send(transport, seq);
            awaitOutcomes((int) seq);
        }
        assertEquals(new Transport.Outcome.Answered(429, Optional.of(Duration.ofSeconds(3))), outcomes.get(1L));
        Duration untilTheDate = ((Transport.Outcome.Answered) outcomes.get(2L)).retryAfter().orElseThrow();
        assertTrue(untilTheDate.compareTo(Duration.ofSeconds(100)) > 0
                && untilTheDate.compareTo(Duration.ofSeconds(120)) <= 0, untilTheDate::toString);
        assertEquals(new Transport.Outcome.Answered(503), outcomes.get(3L), "a value that is neither");
        assertEquals(new Transport.Outcome.Answered(500), outcomes.get(4L), "only 429 and 503 ask to wait");
        assertTrue(((Transport.Outcome.Answered) outcomes.get(5L)).retryAfter().orElseThrow()
                .compareTo(ReceiverHealth.LONGEST_RETRY_AFTER) > 0, "more digits than a long is a long wait");
        assertEquals(new Transport.Outcome.Answered(503, Optional.of(Duration.ZERO)), outcomes.get(6L),
                "a date gone by");
    }

    @Test
    void anInterimAnswerIsReadPastToTheFinalOne() throws Exception {
        var receiver = receiver("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n");
        send(transport(receiver.url(), 1, Duration.ofSeconds(5)), 1);
        awaitOutcomes(1);
        assertEquals(new Transport.Outcome.Answered(503), outcomes.get(1L));
    }

    @Test
    void anAnswerThatClosesTheConnectionOrHasNoLengthIsFollowedByANewConnection() throws Exception {
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> request.index() == 0
                ? Answer.accepting("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", Then.CLOSE)
                : Answer.accepting("HTTP/1.0 200 OK\r\n\r\n", Then.CLOSE));
        var transport = transport(receiver.url(), 1, Duration.ofSeconds(5));
        send(transport, 1);
        awaitOutcomes(1);
        send(transport, 2);
        awaitOutcomes(2);
        send(transport, 3);
        awaitOutcomes(3);
        outcomes.values().forEach(outcome -> assertEquals(new Transport.Outcome.Answered(200), outcome));
        assertEquals(3, receiver.accepted());
    }

    @Test
    void aKeptConnectionTheReceiverClosedWhileIdleIsReplacedWithoutAFailure() throws Exception {
        var receiver = receiver(NO_CONTENT);
        var transport = transport(receiver.url(), 1, Duration.ofSeconds(5));
        send(transport, 1);
        awaitOutcomes(1);
        receiver.closeEveryConnection();
        send(transport, 2);
        awaitOutcomes(2);
        assertEquals(new Transport.Outcome.Answered(204), outcomes.get(2L));
        assertEquals(2, receiver.accepted());
    }

    @Test
    void aHeadThatNeverEndsFailsTheAttempt() throws Exception {
        var receiver = receiver("HTTP/1.1 200 OK\r\n" + "X: y\r\n".repeat(40_000));
        send(transport(receiver.url(), 1, Duration.ofSeconds(5)), 1);
        awaitOutcomes(1);
        assertInstanceOf(Transport.Outcome.Failed.class, outcomes.get(1L));
    }

    /**
     * A receiver is a third party: a 200 whose head, or whose chunked body's trailer, is larger than the bound fails
     * its attempt rather than being held in memory.
     */
    @Test
    void anAnswerWhoseHeadOrTrailerIsTensOfMebibytesFailsItsAttempt() throws Exception {
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> request.index() == 0
                ? Answer.padded("HTTP/1.1 200 OK\r\nX-Big: ", HUGE, "\r\nContent-Length: 0\r\n\r\n", Then.KEEP, false)
                : Answer.padded("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Big: ", HUGE,
                        "\r\n\r\n", Then.KEEP, false));
        var transport = transport(receiver.url(), 1, Duration.ofSeconds(10));
        send(transport, 1);
        awaitOutcomes(1);
        send(transport, 2);
        awaitOutcomes(2);
        assertEquals(new Transport.Outcome.Failed("bad answer: Response Header Bytes Too Large"), outcomes.get(1L));
        // The trailer comes after the head: Jetty's parser ends that answer as one cut short.
        assertEquals(new Transport.Outcome.Failed("the connection ended before a complete answer"),
                outcomes.get(2L));
    }

    /** The bound is far above any real receiver's head: one of its size is read as the answer it is. */
    @Test
    void aHeadOfTheBoundsSizeIsRead() throws Exception {
        String start = "HTTP/1.1 200 OK\r\nX-Big: ";
        String end = "\r\nContent-Length: 0\r\n\r\n";
        var receiver = closed(new ScriptedReceiver());
        int most = WebhookHttpClient.MOST_HEAD_BYTES;
        receiver.answer(request -> Answer.padded(start, most - start.length() - end.length(),
                end, Then.KEEP, true));
        send(transport(receiver.url(), 1, Duration.ofSeconds(5)), 1);
        awaitOutcomes(1);
        assertEquals(new Transport.Outcome.Answered(200), outcomes.get(1L));
    }

    /** The reason a state line and a span show is short, and names none of Jetty's objects (class@hash{...}). */
    @Test
    void aBrokenAnswersReasonIsShortAndNamesNoneOfJettysObjects() throws Exception {
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> request.index() == 0
                ? Answer.refusing("HTTP/1.1 +20 OK\r\nContent-Length: 0\r\n\r\n", Then.KEEP)
                : Answer.refusing("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", Then.CLOSE));
        var transport = transport(receiver.url(), 1, Duration.ofSeconds(5));
        send(transport, 1);
        awaitOutcomes(1);
        send(transport, 2);
        awaitOutcomes(2);
        assertEquals(new Transport.Outcome.Failed("bad answer: Bad status"), outcomes.get(1L));
        assertEquals(new Transport.Outcome.Failed("the connection ended before a complete answer"),
                outcomes.get(2L));
    }

    /** Any other failure whose message names one of Jetty's objects is shown by its kind alone. */
    @Test
    void aMessageNamingAnObjectIsLeftOut() {
        assertEquals("IOException", JettyTransport.describe(new IOException("aborted on "
                + "oejcti.HttpConnectionOverHTTP@66f41385::oeji.SocketChannelEndPoint@3f2e2177[{l=/1.2.3.4:5}]")));
        assertEquals("IOException: Broken pipe", JettyTransport.describe(new IOException("Broken pipe")));
    }

    @Test
    void aHostThatDoesNotResolveAndAPortThatRefusesAreNamed() throws Exception {
        send(transport(URI.create("http://no-such-host.invalid/"), 1, Duration.ofSeconds(5)), 1);
        send(transport(URI.create("http://127.0.0.1:" + Sockets.freePort() + "/"), 1, Duration.ofSeconds(5)), 2);
        awaitOutcomes(2);
        assertEquals(new Transport.Outcome.Failed("its host name could not be resolved"), outcomes.get(1L));
        var refused = assertInstanceOf(Transport.Outcome.Failed.class, outcomes.get(2L));
        assertTrue(refused.reason().startsWith("ConnectException"), refused.reason());
    }

    @Test
    void httpsIsSpokenToACertificateTheClientTrustsAndOnlyToIt() throws Exception {
        LocalhostKeys keys = LocalhostKeys.make();
        KeyStore store = keys.keyStore();
        var keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(store, keys.password());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        var receiver = closed(new ScriptedReceiver(context.getServerSocketFactory()));
        receiver.answer(request -> Answer.accepting(NO_CONTENT, Then.KEEP));

        var trusting = new SslContextFactory.Client();
        trusting.setTrustStore(store);
        URI byName = URI.create("https://localhost:" + receiver.port() + "/");
        URI byAddress = URI.create("https://127.0.0.1:" + receiver.port() + "/");
        send(transport(byName, trusting), 1);
        send(transport(byName, new SslContextFactory.Client()), 2);
        var trustingToo = new SslContextFactory.Client();
        trustingToo.setTrustStore(store);
        send(transport(byAddress, trustingToo), 3);
        awaitOutcomes(3);
        assertEquals(new Transport.Outcome.Answered(204), outcomes.get(1L));
        var untrusted = assertInstanceOf(Transport.Outcome.Failed.class, outcomes.get(2L));
        assertTrue(untrusted.reason().startsWith("SSLHandshakeException"), untrusted.reason());
        var otherName = assertInstanceOf(Transport.Outcome.Failed.class, outcomes.get(3L));
        assertTrue(otherName.reason().startsWith("SSLHandshakeException"), "the host name is checked: " + otherName);
    }

    private ScriptedReceiver receiver(String answer) throws Exception {
        var receiver = closed(new ScriptedReceiver());
        receiver.answer(request -> Answer.accepting(answer, Then.KEEP));
        return receiver;
    }

    private <T extends AutoCloseable> T closed(T resource) {
        closing.add(resource);
        return resource;
    }

    private Transport transport(URI url, int most, Duration deadline) {
        return closed(new WebhookHttpClient(most, deadline, new SslContextFactory.Client())).to(url);
    }

    private Transport transport(URI url, SslContextFactory.Client tls) {
        return closed(new WebhookHttpClient(1, Duration.ofSeconds(5), tls)).to(url);
    }

    private void send(Transport transport, long seq) {
        var event = new PlantEvent(seq, "receiver", seq, PlantEvent.CREATED, new Plant("Plant", null), 0, 0, 0, 0,
                Optional.empty());
        transport.send(event, new SignedRequest("msg_" + seq, 0, "v1,x",
                        ("event " + seq).getBytes(StandardCharsets.ISO_8859_1), Optional.empty()),
                (sent, outcome) -> outcomes.put(sent.seq(), outcome));
    }

    private void awaitOutcomes(int count) throws InterruptedException {
        assertTrue(Poll.until(WAIT, LOOK, () -> outcomes.size() >= count), "outcomes: " + outcomes);
    }
}
