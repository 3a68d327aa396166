package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TricklingTlsServer;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One deadline bounds an attempt, from the name lookup to the answer: a receiver that trickles its TLS handshake and
 * one that never reads the request each fail the attempt once it passes. The name lookup's part is the server's test
 * against a real name server ({@code WebhookNameLookupIT}): one that never answers, and one that answers only after
 * the attempts ended.
 */
class AttemptDeadlineTest {

    private static final Duration DEADLINE = Duration.ofSeconds(1);
    /** The deadline and room for a busy machine: an attempt that hangs would take far longer. */
    private static final Duration ENDS_WITHIN = DEADLINE.plusSeconds(4);
    private static final long AT = System.currentTimeMillis();

    private WebhookHttpClient client;
    private Transport transport;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void aTlsHandshakeTrickledAByteAtATimeFailsTheAttemptAtTheDeadlineAndItsConnectionIsClosed() throws Exception {
        try (var server = TricklingTlsServer.start()) {
            transport = transportTo(URI.create("https://localhost:" + server.port() + "/hook"));
            assertFailsWithin(send(event(16)));
            assertTrue(Poll.until(ENDS_WITHIN, Duration.ofMillis(20), () -> server.closedByClient(1)),
                    "the connection of the attempt was closed");
        }
    }

    @Test
    void aReceiverThatNeverReadsFailsTheAttemptAtTheDeadline() throws Exception {
        try (var server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            var holder = new Thread(() -> holdWithoutReading(server), "receiver that never reads");
            holder.setDaemon(true);
            holder.start();
            transport = transportTo(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/hook"));
            assertFailsWithin(send(event(32 * 1024 * 1024)));
        }
    }

    private Transport transportTo(URI receiver) {
        client = new WebhookHttpClient(4, DEADLINE, new SslContextFactory.Client());
        return client.to(receiver);
    }

    private CompletableFuture<Transport.Outcome> send(PlantEvent event) {
        var outcome = new CompletableFuture<Transport.Outcome>();
        transport.send(event, new SignedRequest("msg_1", AT / 1000, "v1,x", new byte[(int) event.plantId()],
                        Optional.empty()),
                (sent, ended) -> outcome.complete(ended));
        return outcome;
    }

    private static void assertFailsWithin(CompletableFuture<Transport.Outcome> outcome) throws Exception {
        var ended = outcome.get(ENDS_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        assertInstanceOf(Transport.Outcome.Failed.class, ended, ended.toString());
    }

    /** An event whose request body is {@code bytes} long: the test sends a body of its plant id's length. */
    private static PlantEvent event(long bytes) {
        return new PlantEvent(1, "r", bytes, PlantEvent.CREATED, new Plant("Fern", null), AT, 0, 0, AT,
                Optional.empty());
    }

    private static void holdWithoutReading(ServerSocket server) {
        try (Socket socket = server.accept()) {
            socket.setReceiveBufferSize(4096);
            new CompletableFuture<Void>().get(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            // The test is over.
        }
    }
}
