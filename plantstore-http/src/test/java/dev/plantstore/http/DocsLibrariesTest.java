package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import io.javalin.Javalin;
import io.javalin.testtools.JavalinTest;
import io.javalin.testtools.TestConfig;
import java.net.URL;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents need libraries that plantstore-http declares optional. Left at its default, a mount without them
 * serves the API without the documents and says in one line what to add; asked for explicitly, the documents fail the
 * mount. The libraries are hidden as an application that lacks them lacks them: their jars' resources are not found.
 */
class DocsLibrariesTest {

    private static final String OFF_LINE = "INFO dev.plantstore.http.PlantStoreApi - The API's documents "
            + "(/openapi.yaml, /openapi.json, /docs) are off: they need %s on the class path, which plantstore-http "
            + "declares optional. Add %s to your dependencies to serve them, or call withDocs(false) to turn them off "
            + "without this line.";

    /** Javalin's own log capture would swallow what {@link LogCapture} reads. */
    private static final TestConfig NO_LOG_CAPTURE = new TestConfig(false, false, new ContractCheckingHttpClient());

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void byDefaultTheApiIsServedWithoutTheDocumentsWhenSwaggerUiIsMissingAndOneLineSaysWhatToAdd() {
        var app = new AtomicReference<Javalin>();
        String log = LogCapture.during(() -> app.set(Javalin.create(config -> Pipeline.mount(settings(),
                config, Optional.empty(), hiding(OptionalLibrary.SWAGGER_UI)))));
        JavalinTest.test(app.get(), NO_LOG_CAPTURE, (server, client) -> {
            assertEquals(200, TestApi.create(client, "{\"id\":1,\"name\":\"Fern\"}").code());
            assertEquals(404, client.get("/docs").code());
            assertEquals(404, client.get("/openapi.yaml").code());
        });
        assertEquals(List.of(OFF_LINE.formatted("org.webjars:swagger-ui", "it")), lines(log));
    }

    @Test
    void everyMissingLibraryIsNamed() {
        String log = LogCapture.during(() -> Javalin.create(config -> Pipeline.mount(settings(), config,
                Optional.empty(), hiding(OptionalLibrary.SWAGGER_UI, OptionalLibrary.JACKSON_YAML,
                        OptionalLibrary.JACKSON_DATABIND))));
        assertEquals(List.of(OFF_LINE.formatted("org.webjars:swagger-ui and "
                + "com.fasterxml.jackson.dataformat:jackson-dataformat-yaml and "
                + "com.fasterxml.jackson.core:jackson-databind", "them")), lines(log));
    }

    @Test
    void documentsAskedForExplicitlyFailTheMountWhenALibraryIsMissing() {
        var e = assertThrows(IllegalStateException.class, () -> Javalin.create(config -> Pipeline.mount(
                TestApi.api(store).withDocs(true).settings(), config, Optional.empty(),
                hiding(OptionalLibrary.JACKSON_YAML))));
        assertEquals("Serving the API's documents (/openapi.yaml, /openapi.json, /docs), asked for with "
                + "withDocs(true), needs com.fasterxml.jackson.dataformat:jackson-dataformat-yaml on the class path, "
                + "which plantstore-http declares optional: add it to your dependencies, or call withDocs(false)",
                e.getMessage());
    }

    @Test
    void documentsTurnedOffSayNothingWhateverIsMissing() {
        String log = LogCapture.during(() -> Javalin.create(config -> Pipeline.mount(
                TestApi.api(store).withDocs(false).settings(), config, Optional.empty(),
                hiding(OptionalLibrary.SWAGGER_UI))));
        assertEquals(List.of(), lines(log));
    }

    @Test
    void byDefaultTheDocumentsAreServedWhenTheLibrariesArePresentWithoutALine() {
        var app = new AtomicReference<Javalin>();
        String log = LogCapture.during(() -> app.set(Javalin.create(config -> Pipeline.mount(settings(),
                config, Optional.empty(), OptionalLibrary.CLASS_PATH))));
        JavalinTest.test(app.get(), NO_LOG_CAPTURE, (server, client) ->
                assertTrue(client.get("/openapi.yaml").body().string().startsWith("openapi:")));
        assertEquals(List.of(), lines(log));
    }

    private ApiSettings settings() {
        return TestApi.api(store).settings();
    }

    /** This module's class loader, without the jars of {@code hidden}. */
    private static ClassLoader hiding(OptionalLibrary... hidden) {
        Set<String> probes = Stream.of(hidden).map(OptionalLibrary::probe).collect(Collectors.toSet());
        return new ClassLoader(OptionalLibrary.CLASS_PATH) {
            @Override
            public URL getResource(String name) {
                return probes.contains(name) ? null : super.getResource(name);
            }
        };
    }

    /** The lines logged, without the thread slf4j-simple writes first. */
    private static List<String> lines(String log) {
        return log.lines().map(line -> line.replaceFirst("^\\[[^]]*] ", "")).toList();
    }
}
