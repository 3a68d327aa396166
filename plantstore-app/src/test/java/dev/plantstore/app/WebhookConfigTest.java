package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.app.WebhookConfig.Source;
import dev.plantstore.core.WebhookListener;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhookConfigTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    /** RFC 8032's first Ed25519 test vector: a private key and the public key that belongs to it. */
    static final String RFC_8032_SIGNING_KEY = "whsk_" + Base64.getEncoder().encodeToString(
            HexFormat.of().parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"));
    static final String RFC_8032_PUBLIC_KEY = "whpk_" + Base64.getEncoder().encodeToString(
            HexFormat.of().parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
    private static final List<URI> URLS = List.of(URI.create("https://hooks.example/plants"));

    @TempDir
    Path dir;

    private static Source environment(String value) {
        return new Source(Optional.of(value), Optional.empty());
    }

    private static Source file(Path file) {
        return new Source(Optional.empty(), Optional.of(file));
    }

    private Path privateFile(String name, String contents) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, contents);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void noUrlIsNoWebhooks() throws UsageException {
        assertEquals(Optional.empty(), WebhookConfig.configured(List.of(), Source.NONE, Source.NONE,
                WebhookListener.NONE));
    }

    @Test
    void theSecretComesFromTheEnvironmentOrFromAPrivateFileWhoseLinesAreSecrets() throws Exception {
        assertEquals(URLS, WebhookConfig.configured(URLS, environment(SECRET), Source.NONE, WebhookListener.NONE)
                .orElseThrow().webhooks().receivers());
        Path file = privateFile("secret", SECRET + "\nwhsec_" + "B".repeat(32) + "\n");
        assertTrue(WebhookConfig.configured(URLS, file(file), Source.NONE, WebhookListener.NONE).isPresent());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(assertThrows(UsageException.class,
                () -> WebhookConfig.configured(URLS, file(file), Source.NONE, WebhookListener.NONE))
                .getMessage().contains("open to other users"));
    }

    @Test
    void aSigningKeyAloneOrBesideASecretSignsAndItsPublicKeyIsTheOneThatBelongsToIt() throws Exception {
        WebhookConfig alone = WebhookConfig.configured(URLS, Source.NONE, environment(RFC_8032_SIGNING_KEY),
                WebhookListener.NONE).orElseThrow();
        assertEquals(List.of(RFC_8032_PUBLIC_KEY), alone.publicKeys());
        String other = WebhookSigningKeys.generate();
        Path file = privateFile("signing-key", other + "\n" + RFC_8032_SIGNING_KEY + "\n");
        WebhookConfig both = WebhookConfig.configured(URLS, environment(SECRET), file(file), WebhookListener.NONE)
                .orElseThrow();
        assertEquals(2, both.publicKeys().size());
        assertEquals(RFC_8032_PUBLIC_KEY, both.publicKeys().get(1));
        assertTrue(both.webhooks().toString().contains("1 secret, 2 signing keys"), both.webhooks().toString());
        assertFalse(both.toString().contains(RFC_8032_SIGNING_KEY.substring(5)), both.toString());
    }

    @Test
    void aSigningKeyFileOpenToOthersIsRefusedAsSecretFilesAre() throws Exception {
        Path file = privateFile("signing-key", RFC_8032_SIGNING_KEY + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        var refused = assertThrows(UsageException.class,
                () -> WebhookConfig.configured(URLS, Source.NONE, file(file), WebhookListener.NONE));
        assertTrue(refused.getMessage().startsWith("webhook signing key file " + file + " is open to other users"),
                refused.getMessage());
    }

    @Test
    void urlsWithoutASecretOrKeyOrEitherWithoutUrlsAreRefusedAtStartUp() {
        assertTrue(assertThrows(UsageException.class,
                () -> WebhookConfig.configured(URLS, Source.NONE, Source.NONE, WebhookListener.NONE))
                .getMessage().startsWith("--webhook-url needs a signing secret or key"));
        assertThrows(UsageException.class,
                () -> WebhookConfig.configured(List.of(), environment(SECRET), Source.NONE, WebhookListener.NONE));
        assertTrue(assertThrows(UsageException.class, () -> WebhookConfig.configured(List.of(), Source.NONE,
                environment(RFC_8032_SIGNING_KEY), WebhookListener.NONE)).getMessage()
                .startsWith("a webhook signing key is configured but no --webhook-url"));
    }

    @Test
    void aBadUrlSecretOrKeyIsAUsageErrorThatQuotesNoSecret() {
        var badUrl = assertThrows(UsageException.class, () -> WebhookConfig.configured(
                List.of(URI.create("ftp://hooks.example/")), environment(SECRET), Source.NONE, WebhookListener.NONE));
        assertTrue(badUrl.getMessage().contains("ftp://hooks.example/"));
        var badSecret = assertThrows(UsageException.class, () -> WebhookConfig.configured(
                URLS, environment("whsec_tooShortButSecret"), Source.NONE, WebhookListener.NONE));
        assertFalse(badSecret.getMessage().contains("tooShortButSecret"), badSecret.getMessage());
        var shortKey = assertThrows(UsageException.class, () -> WebhookConfig.configured(
                URLS, Source.NONE, environment("whsk_" + "A".repeat(16)), WebhookListener.NONE));
        assertEquals("webhook signing key 1 holds 12 bytes; an Ed25519 private key holds 32", shortKey.getMessage());
        var secretAsKey = assertThrows(UsageException.class, () -> WebhookConfig.configured(
                URLS, Source.NONE, environment(SECRET), WebhookListener.NONE));
        assertEquals("webhook signing key 1 does not start with whsk_", secretAsKey.getMessage());
    }
}
