package dev.plantstore.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.RetryPolicy;
import dev.plantstore.core.webhooks.WebhookSecrets;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
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

    /**
     * RFC 8032's first Ed25519 test vector: its 32-byte private key, and the public key that belongs to it, in the
     * X.509 form the JDK reads (the 12-byte head of RFC 8410, then the 32 raw bytes).
     */
    private static final String RFC_8032_SIGNING_KEY = "whsk_" + Base64.getEncoder().encodeToString(
            HexFormat.of().parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"));
    private static final String RFC_8032_PUBLIC_KEY = "302a300506032b6570032100"
            + "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

    @Test
    void aSigningKeyAddsAnEd25519SignatureOfIdTimestampAndBodyThatItsPublicKeyVerifies() throws Exception {
        String signatures = new WebhookSigner(WebhookSecrets.parse(SECRET + " " + RFC_8032_SIGNING_KEY))
                .sign(MSG_ID, TIMESTAMP, PAYLOAD);
        String[] each = signatures.split(" ");
        assertEquals(2, each.length, signatures);
        assertEquals(EXPECTED, each[0]);
        assertTrue(each[1].startsWith("v1a,"), signatures);
        byte[] signature = Base64.getDecoder().decode(each[1].substring("v1a,".length()));
        assertTrue(verifies(signature, MSG_ID + "." + TIMESTAMP + ".{\"test\": 2432232314}"));
        assertFalse(verifies(signature, MSG_ID + "." + TIMESTAMP + ".{\"test\": 2432232315}"));
        assertFalse(verifies(signature, MSG_ID + "x." + TIMESTAMP + ".{\"test\": 2432232314}"));
    }

    @Test
    void aSigningKeyAloneSignsWithoutAnHmacSignature() {
        String signatures = new WebhookSigner(WebhookSecrets.parse(RFC_8032_SIGNING_KEY))
                .sign(MSG_ID, TIMESTAMP, PAYLOAD);
        assertTrue(signatures.startsWith("v1a,") && !signatures.contains(" "), signatures);
    }

    private static boolean verifies(byte[] signature, String signed) throws Exception {
        Signature ed25519 = Signature.getInstance("Ed25519");
        ed25519.initVerify(KeyFactory.getInstance("Ed25519")
                .generatePublic(new X509EncodedKeySpec(HexFormat.of().parseHex(RFC_8032_PUBLIC_KEY))));
        ed25519.update(signed.getBytes(StandardCharsets.UTF_8));
        return ed25519.verify(signature);
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
