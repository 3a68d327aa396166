package com.example.receiver;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** A receiver's check of a plantstore webhook request, from its three headers and the body as received. */
public final class VerifyWebhook {

    /** What precedes the 32 bytes of an Ed25519 public key in the X.509 form Java reads (RFC 8410). */
    private static final byte[] ED25519_KEY_HEAD = HexFormat.of().parseHex("302a300506032b6570032100");

    private VerifyWebhook() {
    }

    /** Signed with the secret (whsec_) or public key (whpk_), and sent within five minutes (else maybe a replay). */
    public static boolean isAuthentic(String key, String id, String timestamp, String signatures, byte[] body)
            throws GeneralSecurityException {
        long age = Instant.now().getEpochSecond() - Long.parseLong(timestamp);
        return Math.abs(age) <= 300 && isSigned(key, id, timestamp, signatures, body);
    }

    /** One of the webhook-signatures signs id.timestamp.body: a v1, HMAC for a secret, a v1a, one for a key. */
    public static boolean isSigned(String key, String id, String timestamp, String signatures, byte[] body)
            throws GeneralSecurityException {
        byte[] signed = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        if (key.startsWith("whpk_")) {
            return isSignedByPublicKey(key, signed, signatures, body);
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(key.substring("whsec_".length())), "HmacSHA256"));
        mac.update(signed);
        String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        for (String signature : signatures.split(" ")) {
            if (MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                    signature.getBytes(StandardCharsets.UTF_8))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSignedByPublicKey(String publicKey, byte[] signed, String signatures, byte[] body)
            throws GeneralSecurityException {
        byte[] raw = Base64.getDecoder().decode(publicKey.substring("whpk_".length()));
        byte[] x509 = new byte[ED25519_KEY_HEAD.length + raw.length];
        System.arraycopy(ED25519_KEY_HEAD, 0, x509, 0, ED25519_KEY_HEAD.length);
        System.arraycopy(raw, 0, x509, ED25519_KEY_HEAD.length, raw.length);
        var key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(x509));
        for (String signature : signatures.split(" ")) {
            if (signature.startsWith("v1a,")) {
                Signature ed25519 = Signature.getInstance("Ed25519");
                ed25519.initVerify(key);
                ed25519.update(signed);
                ed25519.update(body);
                if (ed25519.verify(Base64.getDecoder().decode(signature.substring("v1a,".length())))) {
                    return true;
                }
            }
        }
        return false;
    }
}
