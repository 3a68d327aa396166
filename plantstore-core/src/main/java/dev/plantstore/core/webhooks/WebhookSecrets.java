package dev.plantstore.core.webhooks;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The keys that sign webhook requests: one per {@code whsec_<base64>} secret given, several while a secret is being
 * replaced. Checked here, where the settings are made; the signing itself belongs to the delivery.
 *
 * @param keys each secret's 24 to 64 bytes, in the order given
 */
public record WebhookSecrets(List<byte[]> keys) {

    private static final String SECRET_PREFIX = "whsec_";
    private static final Pattern SPACES = Pattern.compile(" +");

    public WebhookSecrets {
        keys = List.copyOf(keys);
    }

    /**
     * The keys of {@code secrets}: one {@code whsec_<base64>} secret of 24 to 64 bytes, or several separated by spaces.
     *
     * @throws IllegalArgumentException naming which secret is wrong and how, never quoting it
     */
    public static WebhookSecrets parse(String secrets) {
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
        return new WebhookSecrets(keys);
    }

    @Override
    public String toString() {
        return keys.size() + (keys.size() == 1 ? " secret" : " secrets");
    }
}
