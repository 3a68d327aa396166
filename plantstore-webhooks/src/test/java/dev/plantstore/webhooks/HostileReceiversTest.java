package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.memory.InMemoryPlantStore;
import dev.plantstore.core.memory.MemoryOutbox;
import dev.plantstore.core.webhooks.DeliveringPlantStore;
import dev.plantstore.core.webhooks.DeliverySettings;
import dev.plantstore.core.webhooks.WebhookSecrets;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.ScriptedReceiver;
import dev.plantstore.testkit.ScriptedReceiver.Answer;
import dev.plantstore.testkit.ScriptedReceiver.Then;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An answer decides only its own event, and only a complete, well-formed 2xx delivers it: a receiver that answers
 * with broken or extra bytes loses no event. Each receiver misbehaves for a while on a raw socket, is then mended,
 * and every event must reach it with a 2xx of its own.
 */
class HostileReceiversTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration LOOK = Duration.ofMillis(20);
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final int EVENTS = 10;
    private static final String SERVER_ERROR = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n";

    private ScriptedReceiver receiver;
    private MemoryOutbox outbox;
    private PlantStore store;

    @BeforeEach
    void start() throws Exception {
        receiver = new ScriptedReceiver();
        outbox = new MemoryOutbox(List.of(DeliverySettings.receiverKey(receiver.url())));
        var settings = new DeliverySettings(List.of(receiver.url()), WebhookSecrets.parse(SECRET),
                WebhookListener.NONE, Duration.ofHours(72), Duration.ofMillis(20));
        var delivery = WebhookDelivery.start(outbox, settings,
                new WebhookHttpClient(DeliveryLimits.IN_FLIGHT, DEADLINE, new SslContextFactory.Client()),
                OpenTelemetry.noop());
        store = new DeliveringPlantStore(new InMemoryPlantStore(outbox), delivery);
    }

    @AfterEach
    void stop() throws Exception {
        store.close();
        receiver.close();
    }

    static Stream<Arguments> misbehaviours() {
        String hidden200 = ScriptedReceiver.OK;
        return Stream.of(
                Arguments.of("an empty head of CRLFs", refusing("\r\n\r\n", Then.KEEP)),
                Arguments.of("an empty head of LFs", refusing("\n\n", Then.KEEP)),
                Arguments.of("a 500 with two Content-Lengths hiding a 200 behind it", refusing(
                        "HTTP/1.1 500 Internal Server Error\r\nContent-Length: " + hidden200.length()
                                + "\r\nContent-Length: 0\r\n\r\n" + hidden200, Then.KEEP)),
                Arguments.of("a 500 followed at once by a 200 nobody asked for",
                        refusing(SERVER_ERROR + hidden200, Then.KEEP)),
                Arguments.of("two 200s for one request, then silence on the connection",
                        accepting(hidden200 + hidden200, Then.FALL_SILENT)),
                Arguments.of("a 204 carrying a body that looks like a response",
                        accepting("HTTP/1.1 204 No Content\r\n\r\n" + hidden200, Then.KEEP)),
                Arguments.of("a 304 carrying a body that looks like a response",
                        refusing("HTTP/1.1 304 Not Modified\r\n\r\n" + hidden200, Then.KEEP)),
                Arguments.of("the same Content-Length twice", refusing(
                        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", Then.KEEP)),
                Arguments.of("a 200 saying Connection: close, keep-alive, then a 200 nobody asked for", accepting(
                        "HTTP/1.1 200 OK\r\nConnection: close, keep-alive\r\nContent-Length: 0\r\n\r\n"
                                + hidden200, Then.KEEP)),
                Arguments.of("a Transfer-Encoding of xchunked", refusing(
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", Then.KEEP)),
                Arguments.of("Content-Length with Transfer-Encoding", refusing(
                        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        Then.KEEP)),
                Arguments.of("a status of +20", refusing("HTTP/1.1 +20 OK\r\nContent-Length: 0\r\n\r\n", Then.KEEP)),
                Arguments.of("a status of -01", refusing("HTTP/1.1 -01 OK\r\nContent-Length: 0\r\n\r\n", Then.KEEP)),
                Arguments.of("a chunk without its CRLF", refusing(
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXX0\r\n\r\n", Then.KEEP)),
                Arguments.of("a 200 whose body hides another answer, closed", refusing(
                        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + hidden200, Then.CLOSE)),
                Arguments.of("a 200 whose head is a mebibyte", (Function<ScriptedReceiver.Request, Answer>)
                        request -> Answer.padded("HTTP/1.1 200 OK\r\nX-Big: ", 1 << 20,
                                "\r\nContent-Length: 0\r\n\r\n", Then.KEEP, false)));
    }

    private static Function<ScriptedReceiver.Request, Answer> refusing(String bytes, Then then) {
        return request -> Answer.refusing(bytes, then);
    }

    private static Function<ScriptedReceiver.Request, Answer> accepting(String bytes, Then then) {
        return request -> Answer.accepting(bytes, then);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("misbehaviours")
    void everyEventReachesAReceiverThatMisbehavedOnceItIsMended(String what,
            Function<ScriptedReceiver.Request, Answer> misbehaviour) throws Exception {
        receiver.answer(misbehaviour);
        for (long id = 1; id <= EVENTS; id++) {
            store.create(new NewPlant(id, "Plant " + id));
        }
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.requests().size() >= EVENTS), "the receiver was tried");
        receiver.mend();
        Set<Long> all = LongStream.rangeClosed(1, EVENTS).boxed().collect(Collectors.toSet());
        String key = DeliverySettings.receiverKey(receiver.url());
        assertTrue(Poll.until(WAIT, LOOK, () -> outbox.backlogs().counted(key).pending() == 0),
                "the outbox was emptied");
        assertEquals(all, receiver.answeredFor2xx(), "each event delivered had a 2xx of its own");
    }
}
