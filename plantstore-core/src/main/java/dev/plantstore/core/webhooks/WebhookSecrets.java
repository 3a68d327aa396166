package dev.plantstore.core.webhooks;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The keys that sign webhook requests: one per {@code whsec_<base64>} secret given (an HMAC key), one per
 * {@code whsk_<base64>} signing key given (an Ed25519 private key), several of a kind while one is being replaced.
 * Checked here, where the settings are made; the signing itself belongs to the delivery.
 *
 * @param keys        each secret's 24 to 64 bytes, in the order given
 * @param signingKeys each signing key's 32 bytes, the Ed25519 private key as RFC 8032 has it, in the order given
 */
public record WebhookSecrets(List<byte[]> keys, List<byte[]> signingKeys) {

    private static final String SECRET_PREFIX = "whsec_";
    private static final String SIGNING_KEY_PREFIX = "whsk_";
    private static final int SIGNING_KEY_BYTES = 32;
    private static final Pattern SPACES = Pattern.compile(" +");

    public WebhookSecrets {
        keys = List.copyOf(keys);
        signingKeys = List.copyOf(signingKeys);
    }

    /**
     * The keys of {@code secrets}: {@code whsec_<base64>} secrets of 24 to 64 bytes and {@code whsk_<base64>} Ed25519
     * signing keys of 32 bytes, at least one of either, separated by spaces.
     *
     * @throws IllegalArgumentException naming which secret or key is wrong and how, never quoting it
     */
    public static WebhookSecrets parse(String secrets) {
        String trimmed = secrets.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("no webhook secret given");
        }
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> signingKeys = new ArrayList<>();
        for (String secret : SPACES.split(trimmed)) {
            if (secret.startsWith(SIGNING_KEY_PREFIX)) {
                signingKeys.add(signingKey(secret, signingKeys.size() + 1));
            } else if (secret.startsWith(SECRET_PREFIX)) {
                keys.add(hmacKey(secret, keys.size() + 1));
            } else {
                throw new IllegalArgumentException("webhook secret " + (keys.size() + signingKeys.size() + 1)
                        + " does not start with whsec_ (a secret) or whsk_ (a signing key)");
            }
        }
        return new WebhookSecrets(keys, signingKeys);
    }

    private static byte[] hmacKey(String secret, int position) {
        byte[] key = decoded(secret, SECRET_PREFIX, "webhook secret " + position);
        if (key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException("webhook secret " + position + " holds " + key.length
                    + " bytes; it must hold 24 to 64 random bytes");
        }
        return key;
    }

    private static byte[] signingKey(String secret, int position) {
        byte[] key = decoded(secret, SIGNING_KEY_PREFIX, "webhook signing key " + position);
        if (key.length != SIGNING_KEY_BYTES) {
            throw new IllegalArgumentException("webhook signing key " + position + " holds " + key.length
                    + " bytes; an Ed25519 private key holds 32");
        }
        return key;
    }

    private static byte[] decoded(String secret, String prefix, String what) {
        try {
            return Base64.getDecoder().decode(secret.substring(prefix.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not " + prefix + " and base64");
        }
    }

    @Override
    public String toString() {
        String secrets = keys.size() + (keys.size() == 1 ? " secret" : " secrets");
        return signingKeys.isEmpty() ? secrets
                : secrets + ", " + signingKeys.size() + (signingKeys.size() == 1 ? " signing key" : " signing keys");
    }
}
