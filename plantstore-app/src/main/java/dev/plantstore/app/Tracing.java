package dev.plantstore.app;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

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

    /** A setting's name as the SDK's messages write it, where they quote one. */
    private static final Pattern PROPERTY_NAME = Pattern.compile("otel(\\.[a-z0-9]+)+");

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
                    // The server closes the SDK last, once it has stopped; the SDK's own hook would shut it down as
                    // the stop begins, losing the spans ended since its last export, and adding it fails once a stop
                    // has begun.
                    .disableShutdownHook()
                    .setResultAsGlobal()
                    .build()
                    .getOpenTelemetrySdk());
        } catch (ConfigurationException e) {
            throw new UsageException("tracing: " + refusal(e, environment, properties));
        }
    }

    /**
     * Which settings the SDK refused, by name alone. Never its message: that quotes the value, and a header or an
     * endpoint's user information is a credential. The settings it names, as they were set (a variable or a system
     * property); when it names none that was set, every {@code OTEL_*} setting there is.
     */
    private static String refusal(ConfigurationException refused, Map<String, String> environment,
                                  Properties properties) {
        Set<String> named = new HashSet<>();
        for (Throwable said = refused; said != null; said = said.getCause()) {
            if (said.getMessage() != null) {
                PROPERTY_NAME.matcher(said.getMessage()).results().forEach(name -> named.add(name.group()));
            }
        }
        List<String> given = new ArrayList<>();
        properties.stringPropertyNames().stream().filter(name -> isSetting(asProperty(name))).sorted()
                .forEach(given::add);
        environment.keySet().stream().filter(name -> isSetting(asProperty(name))).sorted().forEach(given::add);
        List<String> suspects = given.stream().filter(name -> named.contains(asProperty(name))).toList();
        if (suspects.isEmpty()) {
            suspects = given;
        }
        if (suspects.size() == 1) {
            return suspects.get(0) + " is set to a value the OpenTelemetry SDK refuses (not shown: it may hold a "
                    + "credential)";
        }
        return "the OpenTelemetry SDK refuses the value of one of " + String.join(", ", suspects) + " (not shown: "
                + "they may hold credentials)";
    }

    private static boolean isSetting(String property) {
        return property.startsWith("otel.");
    }

    /** A variable's or a system property's name as the SDK writes it: {@code otel.exporter.otlp.headers}. */
    private static String asProperty(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
    }

    /**
     * The {@code OTEL_*} variables of {@code environment} as the SDK names them ({@code otel.exporter.otlp.endpoint}),
     * so that the SDK is configured by the environment that {@link #configured} judged, not by the process's alone.
     */
    private static Map<String, String> settingsIn(Map<String, String> environment) {
        Map<String, String> settings = new HashMap<>();
        environment.forEach((name, value) -> {
            String property = asProperty(name);
            if (isSetting(property)) {
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
