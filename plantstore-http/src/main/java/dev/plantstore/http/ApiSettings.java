package dev.plantstore.http;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TokenVerifier;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The values an API is built from, checked in one place: the public API's withers change them, its constants name
 * the defaults, and the pipeline builds a server from them. {@code readiness} is what the health routes answer (none
 * are mounted when empty); {@code metrics} is the registry the metrics go to (Micrometer's classes are touched only
 * where it is present); {@code documentedIssuer} is the identity provider the OpenAPI document names.
 */
record ApiSettings(PlantStore store, TokenVerifier verifier, int maxBodyBytes, DocsServed docs,
                   Optional<URI> documentedIssuer, Set<String> corsOrigins, int authFailureLimit,
                   Optional<MeterRegistry> metrics, Optional<OpenTelemetry> tracing, boolean healthTraced,
                   Optional<BooleanSupplier> readiness, BearerAuth.Scopes scopes, ClientAddresses clientAddresses) {

    static final int MAX_BODY_BYTES = 64 * 1024;
    static final int AUTH_FAILURE_LIMIT = 30;
    static final String CREATE_SCOPE = "plants:create";
    static final String DELETE_SCOPE = "plants:delete";

    /** When the documents are served: as {@code withDocs} chose, or by default when their libraries are present. */
    enum DocsServed { WHEN_PRESENT, ALWAYS, NEVER }

    ApiSettings {
        Objects.requireNonNull(verifier, "null verifier");
        if (maxBodyBytes < 1 || maxBodyBytes == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxBodyBytes must be between 1 and " + (Integer.MAX_VALUE - 1));
        }
        corsOrigins.forEach(Cors::requireValidOrigin);
        corsOrigins = Set.copyOf(corsOrigins);
        if (authFailureLimit < 0) {
            throw new IllegalArgumentException("authFailureLimit must not be negative");
        }
        Objects.requireNonNull(scopes, "null scopes");
    }

    /** The defaults over {@code store}; the health routes answer whether it is available. */
    static ApiSettings of(PlantStore store, TokenVerifier verifier) {
        // Checked here rather than by the constructor: the readiness below reads it first.
        Objects.requireNonNull(store, "null store");
        return new ApiSettings(store, verifier, MAX_BODY_BYTES, DocsServed.WHEN_PRESENT, Optional.empty(), Set.of(),
                AUTH_FAILURE_LIMIT, Optional.empty(), Optional.empty(), false, Optional.of(store::isAvailable),
                new BearerAuth.Scopes(CREATE_SCOPE, DELETE_SCOPE), ClientAddresses.PEERS_ONLY);
    }

    /** A copy with what {@code change} sets, checked as a new one is. */
    ApiSettings with(Consumer<Changes> change) {
        var changes = new Changes(this);
        change.accept(changes);
        return new ApiSettings(store, verifier, changes.maxBodyBytes, changes.docs, changes.documentedIssuer,
                changes.corsOrigins, changes.authFailureLimit, changes.metrics, changes.tracing,
                changes.healthTraced, changes.readiness, changes.scopes, changes.clientAddresses);
    }

    /** The values a wither may change, starting from those of the settings it copies. */
    static final class Changes {
        int maxBodyBytes;
        DocsServed docs;
        Optional<URI> documentedIssuer;
        Set<String> corsOrigins;
        int authFailureLimit;
        Optional<MeterRegistry> metrics;
        Optional<OpenTelemetry> tracing;
        boolean healthTraced;
        Optional<BooleanSupplier> readiness;
        BearerAuth.Scopes scopes;
        ClientAddresses clientAddresses;

        private Changes(ApiSettings settings) {
            maxBodyBytes = settings.maxBodyBytes;
            docs = settings.docs;
            documentedIssuer = settings.documentedIssuer;
            corsOrigins = settings.corsOrigins;
            authFailureLimit = settings.authFailureLimit;
            metrics = settings.metrics;
            tracing = settings.tracing;
            healthTraced = settings.healthTraced;
            readiness = settings.readiness;
            scopes = settings.scopes;
            clientAddresses = settings.clientAddresses;
        }
    }
}
