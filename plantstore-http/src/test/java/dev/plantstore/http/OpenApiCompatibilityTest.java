package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.plantstore.testkit.PreviousRelease;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;
import org.openapitools.openapidiff.core.output.ConsoleRender;

/**
 * The API document keeps everything the previous release's offered (docs/compatibility.md): openapi-diff finds no
 * incompatible change, such as a removed or narrowed operation, field or status. The check is shown to pass the
 * document against itself and to fail each kind of break made in a copy of it.
 */
class OpenApiCompatibilityTest {

    private static final String DOCUMENT = "dev/plantstore/http/openapi.yaml";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theDocumentKeepsEverythingThePreviousReleaseOffered() throws IOException {
        var previous = PreviousRelease.require();
        String previousDocument;
        try (var jar = new ZipFile(previous.libraryJar("plantstore-http").toFile())) {
            var entry = jar.getEntry(DOCUMENT);
            assertTrue(entry != null, DOCUMENT + " in the previous release's plantstore-http jar");
            try (InputStream in = jar.getInputStream(entry)) {
                previousDocument = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        assertNothingIncompatible(previousDocument, current());
    }

    @Test
    void theCheckPassesTheDocumentAgainstItself() throws IOException {
        assertNothingIncompatible(current(), current());
    }

    @Test
    void theCheckFailsARemovedOperation() throws IOException {
        assertBreakFails(document -> ((ObjectNode) document.at("/paths/~1plants~1{id}")).remove("delete"));
    }

    @Test
    void theCheckFailsARemovedResponseField() throws IOException {
        assertBreakFails(document -> ((ObjectNode) document.at("/components/schemas/Plant/properties")).remove("tag"));
    }

    @Test
    void theCheckFailsARemovedRequiredResponseField() throws IOException {
        assertBreakFails(document -> {
            ((ObjectNode) document.at("/components/schemas/Plant/properties")).remove("name");
            ((ObjectNode) document.at("/components/schemas/Plant")).putArray("required");
        });
    }

    @Test
    void theCheckFailsARemovedStatus() throws IOException {
        assertBreakFails(document -> ((ObjectNode) document.at("/paths/~1plants/post/responses")).remove("200"));
    }

    @Test
    void theCheckFailsARequestFieldMadeRequired() throws IOException {
        assertBreakFails(document -> ((ArrayNode) document.at("/components/schemas/NewPlant/required")).add("tag"));
    }

    @Test
    void theCheckFailsANarrowedRequestField() throws IOException {
        assertBreakFails(document -> ((ObjectNode) document.at("/components/schemas/NewPlant/properties/name"))
                .put("maxLength", 10));
    }

    private static void assertBreakFails(Consumer<JsonNode> breakIt) throws IOException {
        JsonNode document = YAML.readTree(current());
        breakIt.accept(document);
        String broken = YAML.writeValueAsString(document);
        assertThrows(AssertionError.class, () -> assertNothingIncompatible(current(), broken));
    }

    /**
     * openapi-diff's rules, and one of this project's: openapi-diff lets an optional response field go (a client
     * must cope with its absence), but a client may still read it whenever it is there, so a field of a schema the
     * previous document named stays.
     */
    private static void assertNothingIncompatible(String previous, String current) {
        ChangedOpenApi changes = OpenApiCompare.fromContents(previous, current);
        List<String> removedFields = removedFields(changes.getOldSpecOpenApi(), changes.getNewSpecOpenApi());
        if (!removedFields.isEmpty()) {
            throw new AssertionError("the API document drops fields of the previous release's: " + removedFields);
        }
        if (changes.isIncompatible()) {
            var report = new ByteArrayOutputStream();
            try (var writer = new OutputStreamWriter(report, StandardCharsets.UTF_8)) {
                new ConsoleRender().render(changes, writer);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            throw new AssertionError("the API document breaks the previous release's:\n"
                    + report.toString(StandardCharsets.UTF_8));
        }
    }

    /** {@code Schema.field} for each field of a named schema of {@code previous} that {@code current} lacks. */
    private static List<String> removedFields(OpenAPI previous, OpenAPI current) {
        var currentSchemas = current.getComponents().getSchemas();
        List<String> removed = new ArrayList<>();
        previous.getComponents().getSchemas().forEach((name, schema) -> {
            Set<String> kept = fieldNames(currentSchemas.get(name));
            fieldNames(schema).stream().filter(field -> !kept.contains(field))
                    .forEach(field -> removed.add(name + "." + field));
        });
        return removed;
    }

    private static Set<String> fieldNames(Schema<?> schema) {
        return schema == null || schema.getProperties() == null ? Set.of() : schema.getProperties().keySet();
    }

    private static String current() throws IOException {
        try (InputStream in = OpenApiCompatibilityTest.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
            assertTrue(in != null, DOCUMENT + " on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
