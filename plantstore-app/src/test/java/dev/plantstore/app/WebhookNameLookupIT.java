package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TricklingTlsServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attempt's one deadline (10 s) bounds the receiver's name lookup too, against a real name server that the jar
 * asks: one that never answers fails the attempt at the deadline, and a connection that opens only once its attempt
 * has failed is closed within the deadline of its opening.
 */
@Tag("heavy")
class WebhookNameLookupIT {

    private static final String HOST = "receiver.plantstore.test";
    /** The deadline and room for a busy machine, well short of the 30 s the resolver waits for a name server. */
    private static final Duration WITHIN_THE_DEADLINE = Duration.ofSeconds(20);
    private static final Duration LOOK = Duration.ofMillis(50);

    @TempDir
    Path dir;

    @BeforeEach
    void needsRoot() {
        Faults.requireRoot();
    }

    private RunningJar startDeliveringTo(String receiver, NameServer names) throws Exception {
        return RunningJar.startResolvingNamesWith(names.resolvConf(dir), dir, Map.of("PLANTSTORE_TOKENS", Faults.TOKEN,
                "PLANTSTORE_WEBHOOK_SECRET", WebhooksIT.SECRET, "PLANTSTORE_WEBHOOK_URL", receiver));
    }

    @Test
    void aNameLookupThatNeverEndsFailsTheAttemptAtTheDeadline() throws Exception {
        String receiver = "http://" + HOST + ":9/hook";
        try (var names = NameServer.silent(); var jar = startDeliveringTo(receiver, names)) {
            assertEquals(200, Faults.create(jar, 1).status());
            assertTrue(Poll.until(WITHIN_THE_DEADLINE, LOOK,
                    () -> jar.outputSoFar().contains("webhooks to " + receiver + ": failing (")), jar::outputSoFar);
            assertTrue(names.asked().contains(HOST), "the name server was asked: " + names.asked());
        }
    }

    /**
     * Three events in flight ask for three connections, which all open once the name is found, after every first
     * attempt has failed; the receiver's trickle keeps them from ever being idle. A retry of the failing receiver
     * waits for a connection whose handshake is not over, and its time-out closes that one: the retries, one event at
     * a time after a back-off that doubles, close one connection each, the third no sooner than 40 s after the
     * creates. Without a deadline of their own, the third connection would be open long past the window waited here.
     */
    @Test
    void connectionsOpenedOnlyAfterTheirAttemptsEndedAreClosedAtTheDeadline() throws Exception {
        try (var trickling = TricklingTlsServer.start();
             var names = NameServer.answeringAfter(Duration.ofSeconds(12))) {
            String receiver = "https://" + HOST + ":" + trickling.port() + "/hook";
            try (var jar = startDeliveringTo(receiver, names)) {
                for (int id = 1; id <= 3; id++) {
                    assertEquals(200, Faults.create(jar, id).status());
                }
                assertTrue(Poll.until(WITHIN_THE_DEADLINE.plusSeconds(20), LOOK, () -> trickling.accepted() >= 3),
                        "the jar connected once it had the name: " + names.asked() + "\n" + jar.outputSoFar());
                assertTrue(jar.outputSoFar().contains("webhooks to " + receiver + ": failing ("),
                        "the attempts had failed before their name was found:\n" + jar.outputSoFar());
                assertTrue(Poll.until(WITHIN_THE_DEADLINE, LOOK, () -> trickling.closedByClient(3)),
                        "the three connections, trickled a byte at a time, were closed:\n" + jar.outputSoFar());
            }
        }
    }
}
