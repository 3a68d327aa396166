package dev.plantstore.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One webhook request's signature over {@code <webhook-id>.<webhook-timestamp>.<body>}, the way the webhook signer
 * makes each: HMAC-SHA256 under a {@code whsec_} secret against Ed25519 under a {@code whsk_} key, both with the JDK,
 * and Ed25519 with Bouncy Castle's lightweight API, the library a faster signer would take it from.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WebhookSigningBenchmark {

    private final byte[] prefix = "msg_123456.1764672000.".getBytes(StandardCharsets.UTF_8);
    private final byte[] body = ("{\"type\":\"plant.created\",\"timestamp\":\"2026-12-02T10:00:00.000Z\","
            + "\"data\":{\"id\":123456,\"name\":\"Monstera deliciosa\",\"tag\":\"aroid\"}}")
            .getBytes(StandardCharsets.UTF_8);
    private final byte[] secret = new byte[24];
    private final byte[] signingKey = new byte[32];
    private PrivateKey jdkKey;
    private Ed25519PrivateKeyParameters bouncyCastleKey;

    @org.openjdk.jmh.annotations.Setup
    public void keys() throws GeneralSecurityException {
        Arrays.fill(secret, (byte) 7);
        Arrays.fill(signingKey, (byte) 9);
        jdkKey = KeyFactory.getInstance("Ed25519")
                .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, signingKey));
        bouncyCastleKey = new Ed25519PrivateKeyParameters(signingKey, 0);
    }

    @Benchmark
    public byte[] hmacSha256() throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        mac.update(prefix);
        return mac.doFinal(body);
    }

    @Benchmark
    public byte[] ed25519Jdk() throws GeneralSecurityException {
        Signature ed25519 = Signature.getInstance("Ed25519");
        ed25519.initSign(jdkKey);
        ed25519.update(prefix);
        ed25519.update(body);
        return ed25519.sign();
    }

    @Benchmark
    public byte[] ed25519BouncyCastle() {
        var signer = new Ed25519Signer();
        signer.init(true, bouncyCastleKey);
        signer.update(prefix, 0, prefix.length);
        signer.update(body, 0, body.length);
        return signer.generateSignature();
    }
}
