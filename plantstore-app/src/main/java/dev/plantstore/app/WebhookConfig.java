package dev.plantstore.app;

import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.Webhooks;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The webhooks the options and environment configure, checked at start-up: URLs go with a signing secret, a signing
 * key or both.
 *
 * @param webhooks   what the store sends, and how it signs
 * @param publicKeys the {@code whpk_} public key of each signing key, in order, for receivers; none without one
 */
record WebhookConfig(Webhooks webhooks, List<String> publicKeys) {

    WebhookConfig {
        publicKeys = List.copyOf(publicKeys);
    }

    /**
     * Empty when no URL is given. The HMAC secret comes from {@code secret}'s variable (PLANTSTORE_WEBHOOK_SECRET),
     * else from its file; the Ed25519 signing key from {@code signingKey}'s (PLANTSTORE_WEBHOOK_SIGNING_KEY), else from
     * its file. A file's lines are joined by spaces, so a secret or key being replaced may sit on a line of its own.
     *
     * @throws UsageException for a bad URL (which {@link Options} refuses first) or one given twice, an unreadable or
     *                        malformed secret or key, neither of them, or either without URLs; a message never quotes
     *                        a secret or a signing key
     */
    static Optional<WebhookConfig> configured(List<URI> urls, Source secret, Source signingKey,
                                              WebhookListener listener) throws UsageException {
        if (urls.isEmpty()) {
            if (secret.given() || signingKey.given()) {
                throw new UsageException("a webhook " + (secret.given() ? "secret" : "signing key")
                        + " is configured but no --webhook-url (PLANTSTORE_WEBHOOK_URL)");
            }
            return Optional.empty();
        }
        if (!secret.given() && !signingKey.given()) {
            throw new UsageException("--webhook-url needs a signing secret or key: set PLANTSTORE_WEBHOOK_SECRET or "
                    + "--webhook-secret-file to whsec_ and the base64 of 24 to 64 random bytes, or "
                    + "PLANTSTORE_WEBHOOK_SIGNING_KEY or --webhook-signing-key-file to a whsk_ key (made by: "
                    + "java -jar plantstore.jar webhooks signing-key FILE)");
        }
        Optional<String> secrets = secret.read("webhook secret file");
        if (secrets.isPresent() && Arrays.stream(secrets.get().strip().split(" +"))
                .anyMatch(given -> given.startsWith(WebhookSigningKeys.SIGNING_PREFIX))) {
            throw new UsageException("a webhook secret is a whsk_ signing key: give it as "
                    + "PLANTSTORE_WEBHOOK_SIGNING_KEY or --webhook-signing-key-file, so that its public key is shown");
        }
        Optional<String> signingKeys = signingKey.read("webhook signing key file");
        List<String> publicKeys = signingKeys.isPresent() ? WebhookSigningKeys.publicKeys(signingKeys.get())
                : List.of();
        String all = secrets.orElse("") + " " + signingKeys.orElse("");
        try {
            return Optional.of(new WebhookConfig(Webhooks.to(urls, all).withListener(listener), publicKeys));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** A secret given in the environment ({@code environment}) or, failing that, in a private file. */
    record Source(Optional<String> environment, Optional<Path> file) {

        static final Source NONE = new Source(Optional.empty(), Optional.empty());

        boolean given() {
            return environment.isPresent() || file.isPresent();
        }

        /** Its value, a file's lines joined by spaces; empty when not given. */
        Optional<String> read(String what) throws UsageException {
            if (environment.isPresent()) {
                return environment;
            }
            if (file.isPresent()) {
                return Optional.of(String.join(" ", Tokens.readPrivate(file.get(), what)));
            }
            return Optional.empty();
        }
    }
}
