package dev.plantstore.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logger of the API's own lines (a failed request, the documents left off), named after its public type, where
 * an embedder looks for them. By name rather than by class, so that the classes that log need not know that type.
 */
final class ApiLog {

    static final Logger LOG = LoggerFactory.getLogger("dev.plantstore.http.PlantStoreApi");

    private ApiLog() {
    }
}
