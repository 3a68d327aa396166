package dev.plantstore.app;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The webhooks' Ed25519 signing keys as Standard Webhooks writes them: {@code whsk_} and the base64 of the 32-byte
 * private key (RFC 8032), whose public key receivers are given as {@code whpk_} and the base64 of its 32 raw bytes.
 * The store checks and uses the signing keys; the launcher makes new ones and shows their public keys.
 */
final class WebhookSigningKeys {

    static final String SIGNING_PREFIX = "whsk_";
    static final String PUBLIC_PREFIX = "whpk_";
    private static final int KEY_BYTES = 32;
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSigningKeys() {
    }

    /** A new signing key, {@code whsk_} and base64. */
    static String generate() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return SIGNING_PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /**
     * The {@code whpk_} public key of each {@code whsk_} key of {@code signingKeys} (separated by spaces or lines), in
     * their order.
     *
     * @throws UsageException for a key that is not {@code whsk_} and the base64 of 32 bytes; never quoting it
     */
    static List<String> publicKeys(String signingKeys) throws UsageException {
        if (signingKeys.isBlank()) {
            throw new UsageException("no webhook signing key given");
        }
        String[] each = SPACES.split(signingKeys.strip());
        List<String> publicKeys = new ArrayList<>(each.length);
        for (int i = 0; i < each.length; i++) {
            publicKeys.add(publicKey(each[i], i + 1));
        }
        return List.copyOf(publicKeys);
    }

    private static String publicKey(String signingKey, int position) throws UsageException {
        String what = "webhook signing key " + position;
        if (!signingKey.startsWith(SIGNING_PREFIX)) {
            throw new UsageException(what + " does not start with " + SIGNING_PREFIX);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(signingKey.substring(SIGNING_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(what + " is not " + SIGNING_PREFIX + " and base64");
        }
        if (key.length != KEY_BYTES) {
            throw new UsageException(what + " holds " + key.length + " bytes; an Ed25519 private key holds 32");
        }
        return PUBLIC_PREFIX + Base64.getEncoder().encodeToString(publicBytes(key));
    }

    /**
     * The 32 raw bytes of the public key of private key {@code key}. The JDK derives a public key only while it
     * generates a pair, from the private key's 32 random bytes: it is given {@code key} as those bytes. That the pair
     * is {@code key}'s is then checked, by a signature of the private key as the signer makes it, which the public key
     * must verify, so a JDK that drew its bytes otherwise fails here instead of printing a wrong key.
     */
    private static byte[] publicBytes(byte[] key) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(NamedParameterSpec.ED25519, new GivenBytes(key));
            KeyPair pair = generator.generateKeyPair();
            PrivateKey given = KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, key));
            byte[] probe = "plantstore public key check".getBytes(StandardCharsets.UTF_8);
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(given);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(pair.getPublic());
            verifier.update(probe);
            if (!verifier.verify(signature)) {
                throw new IllegalStateException(
                        "this JDK derived a public key that does not belong to the signing key");
            }
            // The X.509 form of an Ed25519 public key (RFC 8410) ends in its 32 raw bytes.
            byte[] encoded = pair.getPublic().getEncoded();
            return Arrays.copyOfRange(encoded, encoded.length - KEY_BYTES, encoded.length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is missing from this JDK", e);
        }
    }

    /** Random bytes that are {@code bytes}: what a key pair's generator draws its private key from. */
    private static final class GivenBytes extends SecureRandom {

        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        GivenBytes(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] into) {
            if (into.length != bytes.length) {
                throw new IllegalStateException("the key pair generator asked for " + into.length + " bytes, not "
                        + bytes.length);
            }
            System.arraycopy(bytes, 0, into, 0, into.length);
        }
    }
}
