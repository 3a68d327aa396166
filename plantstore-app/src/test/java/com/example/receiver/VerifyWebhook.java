package com.example.receiver;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** A receiver's check of a plantstore webhook request, from its three headers and the body as received. */
public final class VerifyWebhook {

    private VerifyWebhook() {
    }

    /** Signed with {@code secret}, and sent within five minutes of now (an older request may be a replay). */
    public static boolean isAuthentic(String secret, String id, String timestamp, String signatures, byte[] body)
            throws GeneralSecurityException {
        long age = Instant.now().getEpochSecond() - Long.parseLong(timestamp);
        return Math.abs(age) <= 300 && isSigned(secret, id, timestamp, signatures, body);
    }

    /** One of the space-separated {@code webhook-signature}s is {@code v1,} and the HMAC of id.timestamp.body. */
    public static boolean isSigned(String secret, String id, String timestamp, String signatures, byte[] body)
            throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        for (String signature : signatures.split(" ")) {
            if (MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                    signature.getBytes(StandardCharsets.UTF_8))) {
                return true;
            }
        }
        return false;
    }
}
