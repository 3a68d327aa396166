package dev.plantstore.webhooks;

import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.WebhookSecrets;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code webhook-signature} of Standard Webhooks: {@code v1,} and the base64 HMAC-SHA256, under a secret's key,
 * of {@code <webhook-id>.<webhook-timestamp>.<body>}; one such signature per secret, separated by spaces.
 */
final class WebhookSigner {

    private final List<byte[]> keys;

    WebhookSigner(WebhookSecrets secrets) {
        this.keys = secrets.keys();
    }

    /** The request of one attempt at {@code event}: its id, the time now, the body and their signatures. */
    SignedRequest request(PlantEvent event, Optional<TraceContext> trace) {
        String id = messageId(event);
        byte[] body = WebhookBody.of(event);
        long timestamp = System.currentTimeMillis() / 1_000;
        return new SignedRequest(id, timestamp, sign(id, timestamp, body), body, trace);
    }

    /** The event's {@code webhook-id}, the same on every attempt, by which a receiver tells a retry from news. */
    static String messageId(PlantEvent event) {
        return "msg_" + event.seq();
    }

    String sign(String id, long timestampSeconds, byte[] body) {
        byte[] prefix = (id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8);
        var signatures = new StringJoiner(" ");
        for (byte[] key : keys) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                mac.update(prefix);
                signatures.add("v1," + Base64.getEncoder().encodeToString(mac.doFinal(body)));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
            }
        }
        return signatures.toString();
    }
}
