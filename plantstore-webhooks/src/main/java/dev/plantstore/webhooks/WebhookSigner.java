package dev.plantstore.webhooks;

import dev.plantstore.core.TraceContext;
import dev.plantstore.core.webhooks.PlantEvent;
import dev.plantstore.core.webhooks.WebhookSecrets;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * An attempt's request as Standard Webhooks has it: the event's JSON body, its {@code webhook-id}, the time and the
 * {@code webhook-signature}s of {@code <webhook-id>.<webhook-timestamp>.<body>}, separated by spaces: {@code v1,} and
 * the base64 HMAC-SHA256 under each secret's key, then {@code v1a,} and the base64 Ed25519 signature under each
 * signing key.
 */
final class WebhookSigner {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /**
     * One attempt's request from its headers on, as Standard Webhooks has it: signed anew each time, as it is now;
     * with the W3C trace context it carries, when there is one.
     */
    record SignedRequest(String id, long timestampSeconds, String signature, byte[] body,
                         Optional<TraceContext> trace) {
    }

    private final List<byte[]> keys;
    /**
     * Ed25519 by Bouncy Castle's lightweight API: a signature takes about 26 µs where the JDK's takes about 500 µs
     * (JDK 17 and 25 alike, bench/RESULTS.md), which would hold a receiver's deliveries to under 2,000 a second.
     */
    private final List<Ed25519PrivateKeyParameters> signingKeys;

    WebhookSigner(WebhookSecrets secrets) {
        this.keys = secrets.keys();
        this.signingKeys = secrets.signingKeys().stream().map(key -> new Ed25519PrivateKeyParameters(key, 0)).toList();
    }

    /** The request of one attempt at {@code event}: its id, the time now, the body and their signatures. */
    SignedRequest request(PlantEvent event, Optional<TraceContext> trace) {
        String id = event.messageId();
        byte[] body = body(event);
        long timestamp = System.currentTimeMillis() / 1_000;
        return new SignedRequest(id, timestamp, sign(id, timestamp, body), body, trace);
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
        for (Ed25519PrivateKeyParameters key : signingKeys) {
            var ed25519 = new Ed25519Signer();
            ed25519.init(true, key);
            ed25519.update(prefix, 0, prefix.length);
            ed25519.update(body, 0, body.length);
            signatures.add("v1a," + Base64.getEncoder().encodeToString(ed25519.generateSignature()));
        }
        return signatures.toString();
    }

    /**
     * The event as the receiver gets it:
     * <pre>{@code
     * {"type":"plant.created","timestamp":"2026-11-23T10:00:00.000Z","data":{"id":1,"name":"Monstera","tag":"aroid"}}
     * }</pre>
     * A deleted plant's data holds its id alone, and an absent tag is left out. The timestamp is the event's recorded
     * time: taken as the batch that wrote it began, and stored with it, so every attempt sends the same bytes.
     */
    static byte[] body(PlantEvent event) {
        return ("{\"type\":\"" + event.type() + "\",\"timestamp\":\""
                + TIMESTAMP.format(Instant.ofEpochMilli(event.recordedAtMillis())) + "\",\"data\":"
                + event.dataJson() + "}").getBytes(StandardCharsets.UTF_8);
    }
}
