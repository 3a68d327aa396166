package dev.plantstore.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.core.NewPlant;
import java.io.IOException;
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
 * what the naive baseline does (Jackson's data binder into a record). In this package because the decoder is not
 * public.
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

    private final byte[] body = "{\"id\":1234567890123,\"name\":\"Plant-0001\",\"tag\":\"succulent\"}"
            .getBytes(StandardCharsets.UTF_8);
    private final byte[] nonAsciiBody = "{\"id\":42,\"name\":\"Ficus \u00e9l\u00e9gant \ud83c\udf3f\",\"tag\":\"\u6a39\"}"
            .getBytes(StandardCharsets.UTF_8);
    private final ObjectMapper mapper = new ObjectMapper();

    @Benchmark
    public NewPlant decode() {
        return NewPlantDecoder.decode(body);
    }

    @Benchmark
    public NewPlant decodeNonAscii() {
        return NewPlantDecoder.decode(nonAsciiBody);
    }

    @Benchmark
    public NaiveNewPlant naiveDataBinding() throws IOException {
        return mapper.readValue(body, NaiveNewPlant.class);
    }
}
