package dev.plantstore.app;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The OpenTelemetry SDK, configured by the standard {@code OTEL_*} variables (or their {@code otel.*} system
 * properties) through its autoconfiguration, and started only when they name where traces go: unconfigured, the
 * server starts no SDK, no exporter and no thread, and pays nothing. The defaults differ from the SDK's in four
 * ways only: the service is {@code plantstore}; OTLP goes over HTTP ({@code http/protobuf}, where the Java SDK's own
 * default is gRPC, which would need a gRPC stack in the jar); and metrics and logs are not exported (the management
 * port serves the metrics). The SDK is registered as the global one, where the webhook delivery finds it.
 */
final class Tracing {

    /** Any one of these set means tracing is wanted. */
    private static final List<String> SWITCHES = List.of("otel.traces.exporter", "otel.exporter.otlp.endpoint",
            "otel.exporter.otlp.traces.endpoint", "otel.exporter.zipkin.endpoint");

    private Tracing() {
    }

    /** Whether the variables or properties ask for tracing; {@code OTEL_SDK_DISABLED=true} refuses it. */
    static boolean configured(Map<String, String> environment, Properties properties) {
        if ("true".equalsIgnoreCase(setting("otel.sdk.disabled", environment, properties).orElse(""))) {
            return false;
        }
        return SWITCHES.stream().anyMatch(name -> setting(name, environment, properties).isPresent());
    }

    /**
     * The SDK the variables configure, registered as global, or empty when they do not ask for tracing.
     *
     * @throws UsageException when the variables are set to something the SDK refuses
     */
    static Optional<OpenTelemetrySdk> start(Map<String, String> environment, Properties properties)
            throws UsageException {
        if (!configured(environment, properties)) {
            return Optional.empty();
        }
        try {
            return Optional.of(AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> Map.of(
                            "otel.service.name", "plantstore",
                            "otel.exporter.otlp.protocol", "http/protobuf",
                            "otel.metrics.exporter", "none",
                            "otel.logs.exporter", "none"))
                    .addPropertiesSupplier(() -> settingsIn(environment))
                    .addPropertiesSupplier(() -> settingsAmong(properties))
                    .setResultAsGlobal()
                    .build()
                    .getOpenTelemetrySdk());
        } catch (ConfigurationException e) {
            Throwable cause = e.getCause();
            throw new UsageException("tracing: " + e.getMessage() + (cause == null ? "" : ": " + cause.getMessage()));
        }
    }

    /**
     * The {@code OTEL_*} variables of {@code environment} as the SDK names them ({@code otel.exporter.otlp.endpoint}),
     * so that the SDK is configured by the environment that {@link #configured} judged, not by the process's alone.
     */
    private static Map<String, String> settingsIn(Map<String, String> environment) {
        Map<String, String> settings = new HashMap<>();
        environment.forEach((name, value) -> {
            String property = name.toLowerCase(Locale.ROOT).replace('_', '.');
            if (property.startsWith("otel.")) {
                settings.put(property, value);
            }
        });
        return settings;
    }

    /** The {@code otel.*} entries of {@code properties}, which the SDK reads only from the system's own. */
    private static Map<String, String> settingsAmong(Properties properties) {
        Map<String, String> settings = new HashMap<>();
        properties.stringPropertyNames().stream().filter(name -> name.startsWith("otel."))
                .forEach(name -> settings.put(name, properties.getProperty(name)));
        return settings;
    }

    private static Optional<String> setting(String property, Map<String, String> environment,
                                            Properties properties) {
        String value = properties.getProperty(property);
        if (value == null) {
            value = environment.get(property.toUpperCase(Locale.ROOT).replace('.', '_'));
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
