package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    /** The signing test vector of the Standard Webhooks reference libraries. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OTHER_SECRET = "whsec_" + "A".repeat(32);
    private static final String MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330;
    private static final byte[] PAYLOAD = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String EXPECTED = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    private static final List<URI> RECEIVER = List.of(URI.create("https://hooks.example/plants"));

    @Test
    void signsTheReferenceTestVectorAsTheStandardExpects() {
        assertEquals(EXPECTED, Webhooks.to(RECEIVER, SECRET).signer().sign(MSG_ID, TIMESTAMP, PAYLOAD));
    }

    @Test
    void whileASecretIsReplacedEachSecretSignsAndTheSignaturesAreSpaceSeparated() {
        String signatures =
                Webhooks.to(RECEIVER, OTHER_SECRET + "  " + SECRET).signer().sign(MSG_ID, TIMESTAMP, PAYLOAD);
        String[] each = signatures.split(" ");
        assertEquals(2, each.length, signatures);
        assertEquals(EXPECTED, each[1]);
        assertTrue(each[0].startsWith("v1,") && !each[0].equals(EXPECTED));
    }

    @Test
    void aSecretMustBeWhsecBase64OfTwentyFourToSixtyFourBytes() {
        var noPrefix = assertThrows(IllegalArgumentException.class,
                () -> Webhooks.to(RECEIVER, "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertFalse(noPrefix.getMessage().contains("MfKQ9r8G"), "an error never quotes a secret");
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(RECEIVER, "whsec_not*base64"));
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(RECEIVER, "whsec_c2hvcnQ="));
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(RECEIVER, " "));
    }

    @Test
    void receiversMustBeAbsoluteHttpOrHttpsUrlsEachGivenOnce() {
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(), SECRET));
        for (String bad : List.of("ftp://hooks.example/x", "/relative", "http:///nohost", "https://h.example/x#frag")) {
            assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(URI.create(bad)), SECRET), bad);
        }
        URI one = URI.create("http://hooks.example/a");
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(one, one), SECRET));
        assertEquals(List.of(one), Webhooks.to(List.of(one), SECRET).receivers());
    }

    @Test
    void toStringShowsNeitherSecretNorCredentialsOfAUrl() {
        var webhooks = Webhooks.to(List.of(URI.create("https://user:pw@hooks.example/a?token=t0k")), SECRET);
        String shown = webhooks.toString();
        assertFalse(shown.contains("MfKQ") || shown.contains("pw") || shown.contains("t0k"), shown);
        assertTrue(shown.contains("https://hooks.example/a"), shown);
    }

    @Test
    void theRetryPeriodIsThreeDaysUnlessSetToAtLeastAMinute() {
        var webhooks = Webhooks.to(RECEIVER, SECRET);
        assertEquals(Duration.ofHours(72), webhooks.retryPeriod());
        assertEquals(Duration.ofHours(24), webhooks.withRetryPeriod(Duration.ofHours(24)).retryPeriod());
        assertThrows(IllegalArgumentException.class, () -> webhooks.withRetryPeriod(Duration.ofSeconds(59)));
    }

    @Test
    void theBackOffDoublesFromAboutTheFirstRetryUpToFiveMinutesWithJitter() {
        Duration first = Duration.ofSeconds(1);
        for (int i = 0; i < 200; i++) {
            long one = WebhookDelivery.backoffMillis(first, 1);
            assertTrue(one >= 500 && one <= 1_000, "first: " + one);
            long fourth = WebhookDelivery.backoffMillis(first, 4);
            assertTrue(fourth >= 4_000 && fourth <= 8_000, "fourth: " + fourth);
            long late = WebhookDelivery.backoffMillis(first, 40);
            assertTrue(late >= 150_000 && late <= 300_000, "late: " + late);
        }
    }

    @Test
    void theBodyIsTheEventAsJsonWithAnAbsentTagLeftOut() {
        long at = java.time.Instant.parse("2026-11-23T10:00:00Z").toEpochMilli();
        assertEquals("{\"type\":\"plant.created\",\"timestamp\":\"2026-11-23T10:00:00.000Z\","
                        + "\"data\":{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}}",
                body(new PlantEvent(1, "r", 1, PlantEvent.CREATED, new Plant("Monstera", "aroid"), at, 0, 0, at)));
        assertEquals("{\"type\":\"plant.deleted\",\"timestamp\":\"2026-11-23T10:00:00.000Z\",\"data\":{\"id\":-7}}",
                body(new PlantEvent(2, "r", -7, PlantEvent.DELETED, null, at, 0, 0, at)));
        assertEquals("{\"type\":\"plant.created\",\"timestamp\":\"2026-11-23T10:00:00.000Z\","
                        + "\"data\":{\"id\":3,\"name\":\"a\\\"b\\\\c\\n\\u0001é\"}}",
                body(new PlantEvent(3, "r", 3, PlantEvent.CREATED, new Plant("a\"b\\c\n\u0001é", null), at, 0, 0, at)));
    }

    private static String body(PlantEvent event) {
        return new String(WebhookBody.of(event), StandardCharsets.UTF_8);
    }
}
