package dev.plantstore.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.core.NewPlant;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
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

/**
 * Request body to a validated {@link NewPlant}: strict UTF-8, the token-level decoder and the record's checks, against
 * what the naive baseline does (Jackson's data binder into a record).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NewPlantDecodingBenchmark {

    record NaiveNewPlant(long id, String name, String tag) {
    }

    /**
     * The HTTP module's decoder is package-private and stays so; the benchmark reaches it by reflection rather than
     * by living in that module's package. A constant method handle is inlined by the JIT like a direct call.
     */
    private static final MethodHandle DECODE = decoder();

    private static MethodHandle decoder() {
        try {
            var decode = Class.forName("dev.plantstore.http.NewPlantDecoder").getDeclaredMethod("decode", byte[].class);
            decode.setAccessible(true);
            return MethodHandles.lookup().unreflect(decode);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the HTTP module's NewPlantDecoder.decode(byte[]) is gone", e);
        }
    }

    private final byte[] body = "{\"id\":1234567890123,\"name\":\"Plant-0001\",\"tag\":\"succulent\"}"
            .getBytes(StandardCharsets.UTF_8);
    private final byte[] nonAsciiBody =
            "{\"id\":42,\"name\":\"Ficus \u00e9l\u00e9gant \ud83c\udf3f\",\"tag\":\"\u6a39\"}"
                    .getBytes(StandardCharsets.UTF_8);
    private final ObjectMapper mapper = new ObjectMapper();

    @Benchmark
    public NewPlant decode() throws Throwable {
        return (NewPlant) DECODE.invokeExact(body);
    }

    @Benchmark
    public NewPlant decodeNonAscii() throws Throwable {
        return (NewPlant) DECODE.invokeExact(nonAsciiBody);
    }

    @Benchmark
    public NaiveNewPlant naiveDataBinding() throws IOException {
        return mapper.readValue(body, NaiveNewPlant.class);
    }
}
