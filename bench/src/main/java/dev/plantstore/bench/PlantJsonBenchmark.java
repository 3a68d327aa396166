package dev.plantstore.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.plantstore.core.Plant;
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
 * A plant to the bytes of its JSON body: the core's own writer ({@link Plant#toJson()}), which every body and event
 * uses, against what the naive baseline does instead (Jackson's generator, as the HTTP module writes its other JSON).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PlantJsonBenchmark {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private final Plant plant = new Plant("Plant-0001", "succulent");
    private final Plant nonAscii = new Plant("Ficus \u00e9l\u00e9gant \ud83c\udf3f", "\u6a39");

    @Benchmark
    public byte[] core() {
        return plant.toJson().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public byte[] coreNonAscii() {
        return nonAscii.toJson().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public byte[] jackson() throws IOException {
        return jackson(plant);
    }

    @Benchmark
    public byte[] jacksonNonAscii() throws IOException {
        return jackson(nonAscii);
    }

    private static byte[] jackson(Plant plant) throws IOException {
        try (var bytes = new ByteArrayBuilder();
             var generator = FACTORY.createGenerator(bytes)) {
            generator.writeStartObject();
            generator.writeStringField("name", plant.name());
            if (plant.tag() != null) {
                generator.writeStringField("tag", plant.tag());
            }
            generator.writeEndObject();
            generator.flush();
            return bytes.toByteArray();
        }
    }
}
