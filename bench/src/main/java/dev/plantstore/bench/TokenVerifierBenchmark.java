package dev.plantstore.bench;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The bearer check every request pays: a SHA-256 of the presented token, compared with the configured digests. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TokenVerifierBenchmark {

    private final TokenVerifier oneToken =
            TokenVerifier.staticTokens(List.of("bench-token-0123456789abcdefghijklmnopq"));
    private final TokenVerifier threeTokens = TokenVerifier.staticTokens(List.of(
            "old-token-0123456789abcdefghijklmnopq", "bench-token-0123456789abcdefghijklmnopq", "ci-token-0123456789"));

    @Benchmark
    public Verification acceptedOfOne() {
        return oneToken.verify("bench-token-0123456789abcdefghijklmnopq");
    }

    @Benchmark
    public Verification refusedOfOne() {
        return oneToken.verify("wrong-token-0123456789abcdefghijklmnopq");
    }

    @Benchmark
    public Verification acceptedOfThree() {
        return threeTokens.verify("bench-token-0123456789abcdefghijklmnopq");
    }

    private final String expectedHeader = "Bearer bench-token-0123456789abcdefghijklmnopq";
    /** A copy, as a request brings its own string; equal content, another object. */
    private final String presentedHeader = new String(expectedHeader.toCharArray());

    /** What the naive baseline does instead: a string comparison, neither constant-time nor digest-based. */
    @Benchmark
    public boolean naiveStringEquals() {
        return expectedHeader.equals(presentedHeader);
    }
}
