package dev.plantstore.core.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code webhook-signature} of Standard Webhooks: {@code v1,} and the base64 HMAC-SHA256, under a secret's key,
 * of {@code <webhook-id>.<webhook-timestamp>.<body>}; one such signature per secret, separated by spaces.
 */
public final class WebhookSigner {

    private static final String SECRET_PREFIX = "whsec_";
    private static final Pattern SPACES = Pattern.compile(" +");

    private final List<byte[]> keys;

    private WebhookSigner(List<byte[]> keys) {
        this.keys = List.copyOf(keys);
    }

    /**
     * The signer of {@code secrets}: one {@code whsec_<base64>} secret of 24 to 64 bytes, or several separated by
     * spaces.
     *
     * @throws IllegalArgumentException naming which secret is wrong and how, never quoting it
     */
    public static WebhookSigner of(String secrets) {
        String trimmed = secrets.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("no webhook secret given");
        }
        List<byte[]> keys = new ArrayList<>();
        int position = 0;
        for (String secret : SPACES.split(trimmed)) {
            position++;
            if (!secret.startsWith(SECRET_PREFIX)) {
                throw new IllegalArgumentException("webhook secret " + position + " does not start with whsec_");
            }
            byte[] key;
            try {
                key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("webhook secret " + position + " is not whsec_ and base64");
            }
            if (key.length < 24 || key.length > 64) {
                throw new IllegalArgumentException("webhook secret " + position + " holds " + key.length
                        + " bytes; it must hold 24 to 64 random bytes");
            }
            keys.add(key);
        }
        return new WebhookSigner(keys);
    }

    /** How many secrets sign each request. */
    public int secrets() {
        return keys.size();
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
