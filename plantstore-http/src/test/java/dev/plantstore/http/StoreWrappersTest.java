package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TraceContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The store's wrappers keep a write's trace context whatever order they nest in: each passes the write on with the
 * context it was given, so the store's webhook events join the trace, and each still does its own part.
 */
class StoreWrappersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().build()).build();
    private final TraceRecordingStore store = new TraceRecordingStore();

    @Test
    void theMeteredStoreInsideTheTracedOneKeepsTheWritesTrace() {
        PlantStore wrapped = new TracedPlantStore(new MeteredPlantStore(store, registry), openTelemetry);

        writeWithinARequestSpan(wrapped);

        assertEquals(2, store.traces.size(), store.traces.toString());
        assertTrue(store.traces.stream().allMatch(Optional::isPresent), store.traces.toString());
        assertEquals(1, registry.get(MeteredPlantStore.OPERATIONS).tag("outcome", "created").timer().count());
        assertEquals(1, registry.get(MeteredPlantStore.OPERATIONS).tag("outcome", "deleted").timer().count());
    }

    @Test
    void theTracedStoreInsideTheMeteredOneKeepsTheWritesTrace() {
        PlantStore wrapped = new MeteredPlantStore(new TracedPlantStore(store, openTelemetry), registry);

        writeWithinARequestSpan(wrapped);

        assertTrue(store.traces.stream().allMatch(Optional::isPresent), store.traces.toString());
        assertEquals(1, registry.get(MeteredPlantStore.OPERATIONS).tag("outcome", "created").timer().count());
    }

    @Test
    void aTraceGivenToAWrapperReachesTheStore() {
        var trace = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", Optional.empty());
        for (UnaryOperator<PlantStore> wrapper : List.<UnaryOperator<PlantStore>>of(
                inner -> new MeteredPlantStore(inner, registry), inner -> new TracedPlantStore(inner, openTelemetry))) {
            store.traces.clear();
            PlantStore wrapped = wrapper.apply(store);
            wrapped.create(new NewPlant(7, "Fern", null), trace);
            wrapped.delete(7, trace);
            assertEquals(List.of(Optional.of(trace), Optional.of(trace)), store.traces);
        }
    }

    private void writeWithinARequestSpan(PlantStore wrapped) {
        Span request = openTelemetry.getTracer("test").spanBuilder("request").startSpan();
        Scope current = request.makeCurrent();
        try {
            wrapped.create(new NewPlant(1, "Monstera", "aroid"));
            wrapped.delete(1);
        } finally {
            current.close();
            request.end();
        }
    }

    /** An in-memory store that notes the trace each write came with. */
    private static final class TraceRecordingStore implements PlantStore {

        private final PlantStore plants = PlantStores.inMemory();
        private final List<Optional<TraceContext>> traces = new ArrayList<>();

        @Override
        public CreateResult create(NewPlant plant) {
            traces.add(Optional.empty());
            return plants.create(plant);
        }

        @Override
        public CreateResult create(NewPlant plant, TraceContext trace) {
            traces.add(Optional.of(trace));
            return plants.create(plant);
        }

        @Override
        public boolean delete(long id) {
            traces.add(Optional.empty());
            return plants.delete(id);
        }

        @Override
        public boolean delete(long id, TraceContext trace) {
            traces.add(Optional.of(trace));
            return plants.delete(id);
        }

        @Override
        public Optional<Plant> find(long id) {
            return plants.find(id);
        }
    }
}
