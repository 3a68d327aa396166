package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.receiver.VerifyWebhook;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The webhooks page links the receiver's check, and the check works. */
class WebhookPageTest {

    private static final Path PAGE = Path.of("..", "docs", "webhooks.md");
    private static final Path SAMPLE = Path.of("src", "test", "java", "com", "example", "receiver",
            "VerifyWebhook.java");

    @Test
    void thePageLinksTheCompiledSample() throws Exception {
        assertTrue(Files.isRegularFile(SAMPLE), SAMPLE.toString());
        assertTrue(Files.readString(PAGE).contains("](../plantstore-app/" + SAMPLE.toString().replace('\\', '/') + ")"),
                "docs/webhooks.md links " + SAMPLE);
    }

    /** Standard Webhooks' reference libraries sign this message with this secret to this signature. */
    @Test
    void theSampleAcceptsTheReferenceTestVectorAndNothingElse() throws Exception {
        String secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        byte[] body = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
        String signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
        assertTrue(VerifyWebhook.isSigned(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330",
                "v1,bm90IGl0 " + signature, body));
        assertFalse(VerifyWebhook.isSigned(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265331", signature, body));
        assertFalse(VerifyWebhook.isAuthentic(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", signature, body),
                "a request from 2021 is too old");
    }

    /**
     * Standard Webhooks gives no test vector for its Ed25519 scheme: RFC 8032's first key pair signs a request here
     * (Ed25519 signatures are deterministic), and the sample checks it with the public key alone.
     */
    @Test
    void theSampleChecksAnEd25519SignatureWithThePublicKeyAloneAndRefusesAChangedRequest() throws Exception {
        String id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        String timestamp = Long.toString(Instant.now().getEpochSecond());
        byte[] body = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(KeyFactory.getInstance("Ed25519").generatePrivate(new EdECPrivateKeySpec(
                NamedParameterSpec.ED25519, Base64.getDecoder().decode(
                        WebhookConfigTest.RFC_8032_SIGNING_KEY.substring("whsk_".length())))));
        signer.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        signer.update(body);
        String signature = "v1a," + Base64.getEncoder().encodeToString(signer.sign());
        String publicKey = WebhookConfigTest.RFC_8032_PUBLIC_KEY;
        assertTrue(VerifyWebhook.isAuthentic(publicKey, id, timestamp, "v1,bm90IGl0 " + signature, body));
        assertFalse(VerifyWebhook.isSigned(publicKey, id + "x", timestamp, signature, body));
        assertFalse(VerifyWebhook.isSigned(publicKey, id, timestamp, signature,
                "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8)));
        assertFalse(VerifyWebhook.isSigned(publicKey, id, timestamp, signature.replace("v1a,", "v1,"), body),
                "an HMAC signature's place is never read as Ed25519's");
        assertFalse(VerifyWebhook.isSigned(WebhookSigningKeys.publicKeys(WebhookSigningKeys.generate()).get(0), id,
                timestamp, signature, body), "another key's public key");
    }
}
