package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.WebhookListener;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhookConfigTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final List<URI> URLS = List.of(URI.create("https://hooks.example/plants"));

    @TempDir
    Path dir;

    @Test
    void noUrlIsNoWebhooks() throws UsageException {
        assertEquals(Optional.empty(),
                WebhookConfig.configured(List.of(), Optional.empty(), Optional.empty(), WebhookListener.NONE));
    }

    @Test
    void theSecretComesFromTheEnvironmentOrFromAPrivateFileWhoseLinesAreSecrets() throws Exception {
        assertEquals(URLS, WebhookConfig.configured(URLS, Optional.of(SECRET), Optional.empty(), WebhookListener.NONE)
                .orElseThrow().receivers());
        Path file = dir.resolve("secret");
        Files.writeString(file, SECRET + "\nwhsec_" + "B".repeat(32) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertTrue(WebhookConfig.configured(URLS, Optional.empty(), Optional.of(file), WebhookListener.NONE)
                .isPresent());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(assertThrows(UsageException.class,
                () -> WebhookConfig.configured(URLS, Optional.empty(), Optional.of(file), WebhookListener.NONE))
                .getMessage().contains("open to other users"));
    }

    @Test
    void urlsWithoutASecretOrASecretWithoutUrlsAreRefusedAtStartUp() {
        assertTrue(assertThrows(UsageException.class,
                () -> WebhookConfig.configured(URLS, Optional.empty(), Optional.empty(), WebhookListener.NONE))
                .getMessage().startsWith("--webhook-url needs a signing secret"));
        assertThrows(UsageException.class,
                () -> WebhookConfig.configured(List.of(), Optional.of(SECRET), Optional.empty(), WebhookListener.NONE));
    }

    @Test
    void aBadUrlOrSecretIsAUsageErrorThatQuotesNoSecret() {
        var badUrl = assertThrows(UsageException.class, () -> WebhookConfig.configured(
                List.of(URI.create("ftp://hooks.example/")), Optional.of(SECRET), Optional.empty(),
                WebhookListener.NONE));
        assertTrue(badUrl.getMessage().contains("ftp://hooks.example/"));
        var badSecret = assertThrows(UsageException.class, () -> WebhookConfig.configured(
                URLS, Optional.of("whsec_tooShortButSecret"), Optional.empty(), WebhookListener.NONE));
        assertFalse(badSecret.getMessage().contains("tooShortButSecret"), badSecret.getMessage());
    }
}
