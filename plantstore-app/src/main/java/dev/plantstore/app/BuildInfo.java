package dev.plantstore.app;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version and the commit this jar was built from, as the build wrote them into plantstore-build.properties: the
 * one source of what {@code --version}, the start-up line and the {@code plantstore_build_info} metric say.
 */
record BuildInfo(String version, String commit) {

    private static final String RESOURCE = "/plantstore-build.properties";

    static final BuildInfo OF_THIS_BUILD = read();

    private static BuildInfo read() {
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing: the jar was not built by Maven");
            }
            var properties = new Properties();
            properties.load(in);
            return new BuildInfo(properties.getProperty("version"), properties.getProperty("commit"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code plantstore 1.0.0 (commit 0123abc)}. */
    String line() {
        return "plantstore " + version + " (commit " + commit + ")";
    }

    /** {@code plantstore_build_info{commit="…",version="…"} 1}, as Prometheus exporters say what they are. */
    void bindTo(MeterRegistry registry) {
        Gauge.builder("plantstore.build.info", () -> 1)
                .description("The version and the commit this server was built from; always 1")
                .tag("version", version)
                .tag("commit", commit)
                .register(registry);
    }
}
