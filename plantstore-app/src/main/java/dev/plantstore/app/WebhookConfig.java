package dev.plantstore.app;

import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.Webhooks;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The webhooks the options and environment configure, checked at start-up: URLs and the secret go together. */
final class WebhookConfig {

    private WebhookConfig() {
    }

    /**
     * Empty when no URL is given. The secret comes from {@code environmentSecret} (PLANTSTORE_WEBHOOK_SECRET), else
     * from the file, whose lines are joined by spaces, so a secret being replaced may sit on a line of its own.
     *
     * @throws UsageException for a bad URL (which {@link Options} refuses first) or one given twice, a missing,
     *                        unreadable or malformed secret, or a secret without URLs; a message never quotes a secret
     */
    static Optional<Webhooks> configured(List<URI> urls, Optional<String> environmentSecret, Optional<Path> secretFile,
                                         WebhookListener listener) throws UsageException {
        boolean secretGiven = environmentSecret.isPresent() || secretFile.isPresent();
        if (urls.isEmpty()) {
            if (secretGiven) {
                throw new UsageException(
                        "a webhook secret is configured but no --webhook-url (PLANTSTORE_WEBHOOK_URL)");
            }
            return Optional.empty();
        }
        String secrets;
        if (environmentSecret.isPresent()) {
            secrets = environmentSecret.get();
        } else if (secretFile.isPresent()) {
            secrets = String.join(" ", Tokens.readPrivate(secretFile.get(), "webhook secret file"));
        } else {
            throw new UsageException("--webhook-url needs a signing secret: set PLANTSTORE_WEBHOOK_SECRET or "
                    + "--webhook-secret-file to whsec_ and the base64 of 24 to 64 random bytes");
        }
        try {
            return Optional.of(Webhooks.to(urls, secrets).withListener(listener));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
