package dev.plantstore.core.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import javax.net.ServerSocketFactory;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP/1.1 connections that carry webhooks, against a receiver whose every byte the test decides. */
class ReceiverConnectionsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(10);
    private static final String NO_CONTENT = "HTTP/1.1 204 No Content\r\n\r\n";

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final Map<Long, ReceiverConnections.Outcome> outcomes = new ConcurrentHashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable resource : closing) {
            resource.close();
        }
    }

    @Test
    void requestsGoOnKeptAliveConnectionsNoMoreThanTheBoundAtOnce() throws Exception {
        var receiver = receiver(request -> NO_CONTENT);
        var connections = connections(receiver.url(), 4, Duration.ofSeconds(5), null);
        for (long seq = 1; seq <= 400; seq++) {
            connections.send(event(seq));
        }
        awaitOutcomes(400);
        outcomes.values().forEach(outcome -> assertEquals(new ReceiverConnections.Outcome.Answered(204), outcome));
        assertTrue(receiver.accepted.get() <= 4, "connections opened: " + receiver.accepted.get());
        assertTrue(receiver.mostAtOnce.get() <= 4, "requests at once: " + receiver.mostAtOnce.get());
    }

    @Test
    void aBurstWhileAConnectionIsIdleGetsAConnectionPerRequestUpToTheBound() throws Exception {
        var receiver = receiver(request -> {
            if (request > 0) {
                LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            }
            return NO_CONTENT;
        });
        var connections = connections(receiver.url(), 8, Duration.ofSeconds(5), null);
        connections.send(event(1));
        awaitOutcomes(1);
        assertTrue(Poll.until(WAIT, LOOK, () -> connections.idleThreads() == 1), "the connection waits, idle");
        for (long seq = 2; seq <= 9; seq++) {
            connections.send(event(seq));
        }
        awaitOutcomes(9);
        assertEquals(8, receiver.mostAtOnce.get(), "requests at once");
    }

    @Test
    void theRequestIsAPostWithItsLengthHostAndTargetAndNoUserInformation() throws Exception {
        var receiver = receiver(request -> NO_CONTENT);
        var url = URI.create("http://user:secret@127.0.0.1:" + receiver.port() + "/hooks/plants?tenant=a%20b");
        connections(url, 1, Duration.ofSeconds(5), null).send(event(1));
        awaitOutcomes(1);
        String request = receiver.requests.get(0);
        assertTrue(request.startsWith("POST /hooks/plants?tenant=a%20b HTTP/1.1\r\nHost: 127.0.0.1:"
                + receiver.port() + "\r\n"), request);
        assertTrue(request.toLowerCase(Locale.ROOT).contains("content-length: 7\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\nevent 1"), request);
        assertTrue(!request.contains("secret"), request);
    }

    @Test
    void answersWithABodyChunkedOrCountedAreReadPastAndTheConnectionKept() throws Exception {
        var receiver = receiver(request -> request % 2 == 0
                ? "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                : "HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n");
        var connections = connections(receiver.url(), 1, Duration.ofSeconds(5), null);
        for (long seq = 1; seq <= 10; seq++) {
            connections.send(event(seq));
        }
        awaitOutcomes(10);
        assertEquals(1, receiver.accepted.get());
        assertEquals(new ReceiverConnections.Outcome.Answered(200), outcomes.get(1L));
        assertEquals(new ReceiverConnections.Outcome.Answered(202), outcomes.get(2L));
    }

    @Test
    void anInterimAnswerIsReadPastToTheFinalOne() throws Exception {
        var receiver = receiver(request -> "HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n");
        connections(receiver.url(), 1, Duration.ofSeconds(5), null).send(event(1));
        awaitOutcomes(1);
        assertEquals(new ReceiverConnections.Outcome.Answered(503), outcomes.get(1L));
    }

    @Test
    void anAnswerThatClosesTheConnectionOrHasNoLengthIsFollowedByANewConnection() throws Exception {
        var receiver = receiver(request -> request == 0 ? "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"
                : "HTTP/1.0 200 OK\r\n\r\n");
        var connections = connections(receiver.url(), 1, Duration.ofSeconds(5), null);
        connections.send(event(1));
        awaitOutcomes(1);
        connections.send(event(2));
        connections.send(event(3));
        awaitOutcomes(3);
        assertEquals(3, receiver.accepted.get());
    }

    @Test
    void aKeptConnectionTheReceiverClosedWhileIdleIsReplacedWithoutAFailure() throws Exception {
        var receiver = receiver(request -> NO_CONTENT);
        var connections = connections(receiver.url(), 1, Duration.ofSeconds(5), null);
        connections.send(event(1));
        awaitOutcomes(1);
        receiver.closeEveryConnection();
        connections.send(event(2));
        awaitOutcomes(2);
        assertEquals(new ReceiverConnections.Outcome.Answered(204), outcomes.get(2L));
        assertEquals(2, receiver.accepted.get());
    }

    @Test
    void aReceiverThatDoesNotAnswerInTimeFailsTheAttempt() throws Exception {
        var receiver = receiver(request -> null);
        connections(receiver.url(), 1, Duration.ofSeconds(1), null).send(event(1));
        awaitOutcomes(1);
        assertEquals(new ReceiverConnections.Outcome.Failed("no answer within 1 s"), outcomes.get(1L));
    }

    @Test
    void aHeadThatNeverEndsFailsTheAttempt() throws Exception {
        var receiver = receiver(request -> "HTTP/1.1 200 OK\r\n" + "X: y\r\n".repeat(4_000));
        connections(receiver.url(), 1, Duration.ofSeconds(5), null).send(event(1));
        awaitOutcomes(1);
        var failed = assertInstanceOf(ReceiverConnections.Outcome.Failed.class, outcomes.get(1L));
        assertTrue(failed.reason().contains("head passed"), failed.reason());
    }

    @Test
    void aHostThatDoesNotResolveAndAPortThatRefusesAreNamed() throws Exception {
        var connections = connections(URI.create("http://no-such-host.invalid/"), 1, Duration.ofSeconds(5), null);
        connections.send(event(1));
        connections(URI.create("http://127.0.0.1:" + Sockets.freePort() + "/"), 1, Duration.ofSeconds(5), null)
                .send(event(2));
        awaitOutcomes(2);
        assertEquals(new ReceiverConnections.Outcome.Failed("its host name could not be resolved"), outcomes.get(1L));
        var refused = assertInstanceOf(ReceiverConnections.Outcome.Failed.class, outcomes.get(2L));
        assertTrue(refused.reason().startsWith("ConnectException"), refused.reason());
    }

    @Test
    void httpsIsSpokenToACertificateTheClientTrustsAndOnlyToIt(@TempDir Path directory) throws Exception {
        char[] password = "changeit".toCharArray();
        Path keys = directory.resolve("receiver.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "receiver", "-keyalg", "EC", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keys.toString(), "-storepass", "changeit").redirectErrorStream(true).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0,
                new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys)) {
            store.load(in, password);
        }
        var keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(store, password);
        var trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);

        var receiver = new ScriptedReceiver(context.getServerSocketFactory(), request -> NO_CONTENT);
        closing.add(receiver);
        connections(URI.create("https://localhost:" + receiver.port() + "/"), 1, Duration.ofSeconds(5),
                context.getSocketFactory()).send(event(1));
        connections(URI.create("https://localhost:" + receiver.port() + "/"), 1, Duration.ofSeconds(5),
                (SSLSocketFactory) SSLSocketFactory.getDefault()).send(event(2));
        awaitOutcomes(2);
        assertEquals(new ReceiverConnections.Outcome.Answered(204), outcomes.get(1L));
        var untrusted = assertInstanceOf(ReceiverConnections.Outcome.Failed.class, outcomes.get(2L));
        assertTrue(untrusted.reason().startsWith("SSLHandshakeException"), untrusted.reason());
    }

    private ScriptedReceiver receiver(IntFunction<String> answers) throws IOException {
        var receiver = new ScriptedReceiver(ServerSocketFactory.getDefault(), answers);
        closing.add(receiver);
        return receiver;
    }

    private ReceiverConnections connections(URI url, int most, Duration timeout, SSLSocketFactory tls) {
        var connections = new ReceiverConnections(url, most, timeout, tls,
                event -> ("Content-Length: 7\r\n\r\nevent " + event.seq()).getBytes(StandardCharsets.ISO_8859_1),
                (event, outcome) -> outcomes.put(event.seq(), outcome));
        closing.add(connections);
        return connections;
    }

    private void awaitOutcomes(int count) throws InterruptedException {
        assertTrue(Poll.until(WAIT, LOOK, () -> outcomes.size() >= count), "outcomes: " + outcomes);
    }

    private static PlantEvent event(long seq) {
        return new PlantEvent(seq, "receiver", seq, "plant.created", new Plant("Plant", null), 0, 0, 0, 0);
    }

    /**
     * A receiver on raw sockets: the {@code n}th request it reads (from 0) is answered with {@code answers(n)}'s bytes
     * as they are, or not at all for null.
     */
    private static final class ScriptedReceiver implements AutoCloseable {

        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final List<String> requests = new CopyOnWriteArrayList<>();
        private final AtomicInteger atOnce = new AtomicInteger();
        private final AtomicInteger counted = new AtomicInteger();
        private final ServerSocket server;
        private final IntFunction<String> answers;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        ScriptedReceiver(ServerSocketFactory factory, IntFunction<String> answers) throws IOException {
            this.server = factory.createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.answers = answers;
            Thread acceptor = new Thread(this::accept, "scripted receiver");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + port() + "/events");
        }

        void closeEveryConnection() throws IOException {
            for (Socket socket : sockets) {
                socket.close();
            }
        }

        private void accept() {
            try {
                while (true) {
                    Socket socket = server.accept();
                    accepted.incrementAndGet();
                    sockets.add(socket);
                    Thread connection = new Thread(() -> serve(socket), "scripted receiver connection");
                    connection.setDaemon(true);
                    connection.start();
                }
            } catch (IOException e) {
                // The test closed the receiver.
            }
        }

        private void serve(Socket socket) {
            try (socket) {
                InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                while (true) {
                    String head = head(in);
                    if (head == null) {
                        return;
                    }
                    mostAtOnce.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
                    int length = 0;
                    for (String line : head.split("\r\n")) {
                        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    String body = new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
                    requests.add(head + body);
                    String answer = answers.apply(counted.getAndIncrement());
                    atOnce.decrementAndGet();
                    if (answer != null) {
                        out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                    if (answer != null && (answer.contains("Connection: close") || answer.startsWith("HTTP/1.0"))) {
                        return;
                    }
                }
            } catch (IOException e) {
                // The client or the test closed the connection.
            }
        }

        private static String head(InputStream in) throws IOException {
            var head = new StringBuilder();
            int next;
            while ((next = in.read()) >= 0) {
                head.append((char) next);
                if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                    return head.toString();
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            server.close();
            closeEveryConnection();
        }
    }
}
