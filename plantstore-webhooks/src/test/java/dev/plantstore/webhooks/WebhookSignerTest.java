package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WebhookSecrets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What goes on the wire: the signature, the body and the back-off between attempts. */
class WebhookSignerTest {

    /** The signing test vector of the Standard Webhooks reference libraries. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OTHER_SECRET = "whsec_" + "A".repeat(32);
    private static final String MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330;
    private static final byte[] PAYLOAD = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String EXPECTED = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void signsTheReferenceTestVectorAsTheStandardExpects() {
        assertEquals(EXPECTED, new WebhookSigner(WebhookSecrets.parse(SECRET)).sign(MSG_ID, TIMESTAMP, PAYLOAD));
    }

    @Test
    void whileASecretIsReplacedEachSecretSignsAndTheSignaturesAreSpaceSeparated() {
        String signatures =
                new WebhookSigner(WebhookSecrets.parse(OTHER_SECRET + "  " + SECRET)).sign(MSG_ID, TIMESTAMP, PAYLOAD);
        String[] each = signatures.split(" ");
        assertEquals(2, each.length, signatures);
        assertEquals(EXPECTED, each[1]);
        assertTrue(each[0].startsWith("v1,") && !each[0].equals(EXPECTED));
    }

    @Test
    void theBackOffDoublesFromAboutTheFirstRetryUpToFiveMinutesWithJitter() {
        var retries = new RetryPolicy(Duration.ofSeconds(1), Duration.ofHours(72));
        for (int i = 0; i < 200; i++) {
            long one = retries.backoffMillis(1);
            assertTrue(one >= 500 && one <= 1_000, "first: " + one);
            long fourth = retries.backoffMillis(4);
            assertTrue(fourth >= 4_000 && fourth <= 8_000, "fourth: " + fourth);
            long late = retries.backoffMillis(40);
            assertTrue(late >= 150_000 && late <= 300_000, "late: " + late);
        }
    }

    @Test
    void theBodyIsTheEventAsJsonWithAnAbsentTagLeftOut() {
        long at = java.time.Instant.parse("2026-11-23T10:00:00Z").toEpochMilli();
        assertEquals("{\"type\":\"plant.created\",\"timestamp\":\"2026-11-23T10:00:00.000Z\","
                        + "\"data\":{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}}",
                body(new PlantEvent(1, "r", 1, PlantEvent.CREATED, new Plant("Monstera", "aroid"), at, 0, 0, at,
                        Optional.empty())));
        assertEquals("{\"type\":\"plant.deleted\",\"timestamp\":\"2026-11-23T10:00:00.000Z\",\"data\":{\"id\":-7}}",
                body(new PlantEvent(2, "r", -7, PlantEvent.DELETED, null, at, 0, 0, at, Optional.empty())));
        assertEquals("{\"type\":\"plant.created\",\"timestamp\":\"2026-11-23T10:00:00.000Z\","
                        + "\"data\":{\"id\":3,\"name\":\"a\\\"b\\\\c\\n\\u0001é\"}}",
                body(new PlantEvent(3, "r", 3, PlantEvent.CREATED, new Plant("a\"b\\c\n\u0001é", null), at, 0, 0, at,
                        Optional.empty())));
    }

    private static String body(PlantEvent event) {
        return new String(WebhookSigner.body(event), StandardCharsets.UTF_8);
    }
}
