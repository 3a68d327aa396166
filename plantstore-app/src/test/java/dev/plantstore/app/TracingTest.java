package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Tracing starts only when the standard OTEL_* variables (or otel.* properties) say where traces go. */
class TracingTest {

    private static Properties properties(String... pairs) {
        var properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    @Test
    void withoutTheVariablesNoSdkStarts() throws Exception {
        assertFalse(Tracing.configured(Map.of("PATH", "/usr/bin", "OTEL_SERVICE_NAME", "x"), properties()));
        assertEquals(Optional.empty(), Tracing.start(Map.of(), properties()));
    }

    @Test
    void anExporterOrAnEndpointTurnsItOn() {
        assertTrue(Tracing.configured(Map.of("OTEL_TRACES_EXPORTER", "otlp"), properties()));
        assertTrue(Tracing.configured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"), properties()));
        assertTrue(Tracing.configured(Map.of(), properties("otel.exporter.otlp.traces.endpoint", "http://h:4318")));
    }

    @Test
    void theSdksOwnDisableSwitchWins() {
        assertFalse(Tracing.configured(Map.of("OTEL_TRACES_EXPORTER", "otlp", "OTEL_SDK_DISABLED", "true"),
                properties()));
    }

    @Test
    void aValueTheSdkRefusesIsOneLineNamingTracing() {
        var refused = assertThrows(UsageException.class,
                () -> Tracing.start(Map.of(), properties("otel.traces.exporter", "carrier-pigeon")));
        assertTrue(refused.getMessage().startsWith("tracing: "), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
    }

    @Test
    void theSdkIsConfiguredFromTheEnvironmentItIsGiven() {
        assertThrows(UsageException.class,
                () -> Tracing.start(Map.of("OTEL_TRACES_EXPORTER", "carrier-pigeon"), properties()));
    }

    /** What {@link Tracing#start} refuses these settings with. */
    private static String refusalOf(Map<String, String> environment) {
        return assertThrows(UsageException.class, () -> Tracing.start(environment, properties())).getMessage();
    }

    private static void assertShowsNoCredential(String refusal) {
        assertFalse(refusal.contains("SECRET") || refusal.contains("PW"), refusal);
        assertFalse(refusal.contains("\n"), refusal);
    }

    @Test
    void aHeadersVariableTheSdkCannotSplitIsNamedWithoutItsValue() {
        String refusal = refusalOf(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer SECRET,broken",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"));
        assertTrue(refusal.startsWith("tracing: OTEL_EXPORTER_OTLP_HEADERS "), refusal);
        assertFalse(refusal.contains("OTEL_EXPORTER_OTLP_ENDPOINT"), "only the one the SDK named: " + refusal);
        assertShowsNoCredential(refusal);
    }

    @Test
    void aHeaderValueTheSdkCannotDecodeNamesTheVariablesSetWithoutTheirValues() {
        String refusal = refusalOf(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%SECRET",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318", "PATH", "/usr/bin"));
        assertTrue(refusal.contains("OTEL_EXPORTER_OTLP_HEADERS") && refusal.contains("OTEL_EXPORTER_OTLP_ENDPOINT"),
                refusal);
        assertFalse(refusal.contains("PATH"), refusal);
        assertShowsNoCredential(refusal);
    }

    @Test
    void anEndpointTheSdkCannotParseIsNamedWithoutItsPassword() {
        String refusal = refusalOf(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://user:PW@[bad"));
        assertTrue(refusal.contains("OTEL_EXPORTER_OTLP_ENDPOINT"), refusal);
        assertShowsNoCredential(refusal);
    }

    @Test
    void aSystemPropertyTheSdkRefusesIsNamedAsItWasSet() {
        var refused = assertThrows(UsageException.class, () -> Tracing.start(Map.of(),
                properties("otel.exporter.otlp.headers", "Authorization=Bearer SECRET,broken",
                        "otel.exporter.otlp.endpoint", "http://127.0.0.1:4318")));
        assertTrue(refused.getMessage().startsWith("tracing: otel.exporter.otlp.headers "), refused.getMessage());
        assertShowsNoCredential(refused.getMessage());
    }
}
