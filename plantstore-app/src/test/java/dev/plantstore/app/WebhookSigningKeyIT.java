package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.receiver.VerifyWebhook;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.WebhookReceiver;
import dev.plantstore.testkit.WebhookReceiver.Received;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ed25519 signatures from the jar: a key made by {@code webhooks signing-key}, the receiver holding only its public
 * key, and a key being replaced while an HMAC secret still signs too.
 */
class WebhookSigningKeyIT {

    private static final String TOKEN = "signing-key-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LOOK = Duration.ofMillis(50);
    private static final int EVENTS = 20;

    @TempDir
    Path dir;

    @AutoClose
    private final WebhookReceiver receiver = WebhookReceiver.onFreePort();

    /** A new key in {@code file}, made by the jar; returns the public key it printed. */
    private String newSigningKey(Path file) throws Exception {
        RunningJar.Completed made = RunningJar.runToCompletion(dir, "webhooks", "signing-key", file.toString());
        assertEquals(0, made.exitCode(), made.stderr());
        assertTrue(made.stdout().matches("whpk_[A-Za-z0-9+/]{43}=\n"), made.stdout());
        return made.stdout().strip();
    }

    private void createAndDelete(RunningJar jar) throws Exception {
        for (int id = 1; id <= EVENTS / 2; id++) {
            assertEquals(200, HTTP.send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                    PlantRequests.plantJson(id, "Plant " + id, null)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
            assertEquals(204, HTTP.send(PlantRequests.delete(URI.create(jar.uri("/plants/") + Integer.toString(id)),
                    TOKEN).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        assertTrue(Poll.until(WAIT, LOOK, () -> receiver.accepted().size() >= EVENTS), receiver.received()::toString);
    }

    private static boolean authentic(String key, Received request) throws Exception {
        return VerifyWebhook.isAuthentic(key, request.id(), request.timestamp(), request.signature(),
                request.body().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aReceiverWithThePublicKeyAloneAcceptsEveryEventAndRefusesAChangedBodyOrId() throws Exception {
        Path keyFile = dir.resolve("signing-key");
        String publicKey = newSigningKey(keyFile);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
        String signingKey = Files.readString(keyFile).strip();
        assertTrue(signingKey.startsWith("whsk_"), "the file holds the signing key");

        RunningJar.Completed shown = RunningJar.runToCompletion(dir, "webhooks", "public-key",
                "--webhook-signing-key-file", keyFile.toString());
        assertEquals(new RunningJar.Completed(0, publicKey + "\n", ""), shown);
        RunningJar.Completed again = RunningJar.runToCompletion(dir, "webhooks", "signing-key", keyFile.toString());
        assertEquals(2, again.exitCode(), again.stdout());
        assertEquals(signingKey, Files.readString(keyFile).strip(), "an existing key is never written over");

        String log;
        Map<String, String> env = Map.of("PLANTSTORE_TOKENS", TOKEN,
                "PLANTSTORE_WEBHOOK_URL", receiver.url().toString());
        try (var jar = RunningJar.start(dir, env, "--webhook-signing-key-file", keyFile.toString())) {
            createAndDelete(jar);
            log = jar.outputSoFar();
        }
        assertTrue(log.contains("webhooks signed with Ed25519 key " + publicKey + " (receivers verify with it)"), log);
        assertFalse(log.contains(signingKey.substring("whsk_".length())), "the signing key is never printed");
        for (Received request : receiver.accepted()) {
            assertTrue(request.signature().startsWith("v1a,") && !request.signature().contains(" "),
                    request.signature());
            assertTrue(authentic(publicKey, request), request::toString);
            assertFalse(VerifyWebhook.isSigned(publicKey, request.id(), request.timestamp(), request.signature(),
                    request.body().replace("plant.", "plant_").getBytes(StandardCharsets.UTF_8)), "a changed body");
            assertFalse(VerifyWebhook.isSigned(publicKey, request.id() + "0", request.timestamp(),
                    request.signature(), request.body().getBytes(StandardCharsets.UTF_8)), "a changed id");
        }
    }

    @Test
    void whileAKeyIsReplacedEveryRequestCarriesBothKeysSignaturesBesideTheSecretsAndEachVerifiesAlone()
            throws Exception {
        String oldPublicKey = newSigningKey(dir.resolve("old"));
        String newPublicKey = newSigningKey(dir.resolve("new"));
        Path both = dir.resolve("signing-keys");
        Files.writeString(both, Files.readString(dir.resolve("new")) + Files.readString(dir.resolve("old")));
        Files.setPosixFilePermissions(both, PosixFilePermissions.fromString("rw-------"));
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN,
                "PLANTSTORE_WEBHOOK_URL", receiver.url().toString(), "PLANTSTORE_WEBHOOK_SECRET", WebhooksIT.SECRET),
                "--webhook-signing-key-file", both.toString())) {
            assertTrue(jar.outputSoFar().contains("webhooks signed with Ed25519 key " + newPublicKey)
                    && jar.outputSoFar().contains("webhooks signed with Ed25519 key " + oldPublicKey),
                    jar::outputSoFar);
            createAndDelete(jar);
        }
        for (Received request : receiver.accepted()) {
            List<String> schemes = Arrays.stream(request.signature().split(" "))
                    .map(signature -> signature.substring(0, signature.indexOf(','))).toList();
            assertEquals(List.of("v1", "v1a", "v1a"), schemes, request.signature());
            assertTrue(authentic(WebhooksIT.SECRET, request), request::toString);
            assertTrue(authentic(newPublicKey, request), request::toString);
            assertTrue(authentic(oldPublicKey, request), request::toString);
        }
    }

    @Test
    void aSigningKeyFileOthersMayReadIsRefusedAtStartUpWithoutQuotingIt() throws Exception {
        Path keyFile = dir.resolve("signing-key");
        newSigningKey(keyFile);
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r--r--"));
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_TOKENS", TOKEN,
                "PLANTSTORE_WEBHOOK_URL", receiver.url().toString()), "--webhook-signing-key-file", keyFile.toString());
        assertEquals(2, refused.exitCode(), refused.stdout());
        assertEquals("plantstore: webhook signing key file " + keyFile + " is open to other users (rw-r--r--); make "
                + "it private with: chmod 600 " + keyFile + "\n", refused.stderr());
        RunningJar.Completed notShown = RunningJar.runToCompletion(dir, "webhooks", "public-key",
                "--webhook-signing-key-file", keyFile.toString());
        assertEquals(new RunningJar.Completed(2, "", refused.stderr()), notShown);
    }
}
