package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.send;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.ErrorResponses;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** With a registry given, requests, refusals, store operations and Jetty are measured, by route template only. */
class MetricsTest {

    private static double value(String scrape, String series) {
        var line = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
        assertTrue(line.find(), () -> series + " in\n" + scrape);
        return Double.parseDouble(line.group(1));
    }

    @Test
    void requestsAreCountedAndTimedByMethodRouteTemplateAndStatus() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        withServer(TestApi.api(PlantStores.inMemory()).withMetrics(registry), (server, client) -> {
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            create(client, "{\"id\":2,\"name\":\"Fern\"}");
            delete(client, "1");
            delete(client, "2");
            delete(client, "3");
            client.get("/nowhere/7");
        });
        String scrape = registry.scrape();
        assertEquals(2, value(scrape,
                "http_server_requests_seconds_count{method=\"POST\",route=\"/plants\",status=\"200\"}"));
        assertEquals(2, value(scrape,
                "http_server_requests_seconds_count{method=\"DELETE\",route=\"/plants/{id}\",status=\"204\"}"));
        assertEquals(1, value(scrape,
                "http_server_requests_seconds_count{method=\"DELETE\",route=\"/plants/{id}\",status=\"404\"}"));
        assertEquals(1, value(scrape,
                "http_server_requests_seconds_count{method=\"GET\",route=\"unmatched\",status=\"404\"}"));
        assertEquals(2, value(scrape, "http_server_requests_seconds_bucket{method=\"POST\",route=\"/plants\","
                + "status=\"200\",le=\"10.0\"}"));
        assertTrue(scrape.contains("le=\"0.005\""), scrape);
        assertFalse(scrape.contains("/plants/1") || scrape.contains("/nowhere"), () -> "no raw path:\n" + scrape);
    }

    @Tag(TestTransport.HTTP1_SOCKET)
    @Test
    void refusedRequestsAreCountedByReason() throws Exception {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        withServer(TestApi.api(PlantStores.inMemory()).withMetrics(registry).withMaxBodyBytes(16)
                .withAuthFailureLimit(1), (server, client) -> {
            create(client, "{broken");
            TestApi.post(client, BodyPublishers.ofString("{}"), request -> request.header("Authorization", BEARER)
                    .header("Content-Type", "text/plain"));
            ErrorResponses.assertError(RawHttp.answerBeforeBody(client.getOrigin(),
                    RawHttp.createHead(80, "Authorization: " + BEARER)), 413);
            send(client, "DELETE", "/plants/1");
            send(client, "DELETE", "/plants/1", "Authorization", "Bearer wrong");
            send(client, "DELETE", "/plants/1", "Authorization", "Bearer wrong");
        });
        String scrape = registry.scrape();
        assertEquals(1, value(scrape, "plantstore_requests_refused_total{reason=\"bad_request\"}"));
        assertEquals(1, value(scrape, "plantstore_requests_refused_total{reason=\"unsupported_media_type\"}"));
        assertEquals(1, value(scrape, "plantstore_requests_refused_total{reason=\"body_too_large\"}"));
        assertEquals(2, value(scrape, "plantstore_requests_refused_total{reason=\"unauthorized\"}"));
        assertEquals(1, value(scrape, "plantstore_requests_refused_total{reason=\"too_many_refused_tokens\"}"));
        assertEquals(2, value(scrape,
                "http_server_requests_seconds_count{method=\"DELETE\",route=\"/plants/*\",status=\"401\"}"));
    }

    @Test
    void storeOperationsAreTimedByOutcome() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        withServer(TestApi.api(PlantStores.inMemory()).withMetrics(registry), (server, client) -> {
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            create(client, "{\"id\":1,\"name\":\"Fern\"}");
            create(client, "{\"id\":1,\"name\":\"Moss\"}");
            delete(client, "1");
            delete(client, "1");
        });
        String scrape = registry.scrape();
        String series = "plantstore_store_operations_seconds_count{operation=\"%s\",outcome=\"%s\"}";
        assertEquals(1, value(scrape, series.formatted("create", "created")));
        assertEquals(1, value(scrape, series.formatted("create", "already_stored")));
        assertEquals(1, value(scrape, series.formatted("create", "duplicate")));
        assertEquals(1, value(scrape, series.formatted("delete", "deleted")));
        assertEquals(1, value(scrape, series.formatted("delete", "absent")));
    }

    @Test
    void jettyConnectionsAndThreadPoolAreMeasured() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        withServer(TestApi.api(PlantStores.inMemory()).withMetrics(registry), (server, client) -> {
            client.get("/health");
            String scrape = registry.scrape();
            assertTrue(value(scrape, "jetty_threads_current") > 0, scrape);
            assertTrue(value(scrape, "jetty_connections_current_connections{connector_name=\"unnamed\"}") >= 1, scrape);
        });
    }

    @Test
    void withoutARegistryNothingIsRecorded() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        withServer(TestApi.api(PlantStores.inMemory()),
                (server, client) -> create(client, "{\"id\":1,\"name\":\"F\"}"));
        assertEquals("", registry.scrape().strip());
    }
}
