package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TricklingTlsServer;
import dev.plantstore.webhooks.WebhookSigner.SignedRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One deadline bounds an attempt, from the name lookup to the answer: a receiver that trickles its TLS handshake,
 * one that never reads the request, and a name lookup that never ends each fail the attempt once it passes. The
 * server's own test of a lookup that never ends asks a real name server ({@code WebhookNameLookupIT}).
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
            transport = transportTo(URI.create("https://localhost:" + server.port() + "/hook"), Optional.empty());
            assertFailsWithin(send(event(16)));
            assertTrue(Poll.until(ENDS_WITHIN, Duration.ofMillis(20), server::closedByClient),
                    "the connection of the attempt was closed");
        }
    }

    @Test
    void aTlsHandshakeThatBeginsOnlyAfterItsAttemptEndedIsClosedAtTheDeadline() throws Exception {
        try (var server = TricklingTlsServer.start()) {
            var lookup = new CompletableFuture<Promise<List<InetSocketAddress>>>();
            SocketAddressResolver late = (host, port, context, promise) -> lookup.complete(promise);
            transport = transportTo(URI.create("https://localhost:" + server.port() + "/hook"), Optional.of(late));
            // The name is found only once the attempt has failed: the connection then opens for no request, so no
            // request's time-out can close it, and the trickle keeps it from ever being idle.
            assertFailsWithin(send(event(16)));
            lookup.get(ENDS_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
                    .succeeded(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port())));
            assertTrue(Poll.until(ENDS_WITHIN, Duration.ofMillis(20), server::closedByClient),
                    "the connection was closed");
        }
    }

    @Test
    void aReceiverThatNeverReadsFailsTheAttemptAtTheDeadline() throws Exception {
        try (var server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            var holder = new Thread(() -> holdWithoutReading(server), "receiver that never reads");
            holder.setDaemon(true);
            holder.start();
            transport = transportTo(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/hook"),
                    Optional.empty());
            assertFailsWithin(send(event(32 * 1024 * 1024)));
        }
    }

    @Test
    void aNameLookupThatNeverEndsFailsTheAttemptAtTheDeadline() throws Exception {
        SocketAddressResolver never = (host, port, context, promise) -> {
            // The lookup never answers, as a resolver that hangs does.
        };
        transport = transportTo(URI.create("http://receiver.example/hook"), Optional.of(never));
        assertFailsWithin(send(event(16)));
    }

    private Transport transportTo(URI receiver, Optional<SocketAddressResolver> resolver) {
        client = new WebhookHttpClient(4, DEADLINE, resolver, new SslContextFactory.Client());
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
