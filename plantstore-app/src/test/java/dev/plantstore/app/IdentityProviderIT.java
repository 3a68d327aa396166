package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.IdentityProvider;
import dev.plantstore.testkit.Sockets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar with an identity provider, a real OAuth 2.0 server issuing signed tokens by the client-credentials grant, as
 * a service would get them: scopes decide what a token may do, static tokens keep working beside it, the principal is
 * logged and never the token, and the provider's outage is a 503 the client may retry, not a 401.
 */
class IdentityProviderIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String STATIC_TOKEN = "static-token-for-the-jar";

    @TempDir
    Path dir;

    private static HttpResponse<String> create(URI plants, String token, long id) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(plants)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\":" + id + ",\"name\":\"Monstera\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> delete(URI plant, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(plant).header("Authorization", "Bearer " + token).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private RunningJar start(URI issuer, String... more) throws Exception {
        String[] args = new String[4 + more.length];
        System.arraycopy(new String[] {"--store", "memory", "--log-format", "json"}, 0, args, 0, 4);
        System.arraycopy(more, 0, args, 4, more.length);
        return RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", "ci-bot:" + STATIC_TOKEN,
                "PLANTSTORE_OIDC_ISSUER", issuer.toString(), "PLANTSTORE_OIDC_AUDIENCE", IdentityProvider.AUDIENCE,
                "PLANTSTORE_MANAGEMENT_PORT", "0"), args);
    }

    @Test
    void scopesFromTheProviderDecideWhatATokenMayDoAndStaticTokensKeepWorking() throws Exception {
        String output;
        String creator;
        try (var provider = IdentityProvider.start();
             var jar = start(provider.issuer())) {
            creator = provider.clientCredentialsToken("inventory-service", "plants:create");
            String both = provider.clientCredentialsToken("admin-service", "plants:create plants:delete");

            assertEquals(200, create(jar.uri("/plants"), creator, 1).statusCode());
            var refused = delete(jar.uri("/plants/1"), creator);
            assertEquals(403, refused.statusCode());
            assertEquals("{\"error\":403,\"message\":\"the bearer token does not grant scope plants:delete\"}",
                    refused.body());
            assertEquals("Bearer realm=\"plantstore\", error=\"insufficient_scope\", scope=\"plants:delete\"",
                    refused.headers().firstValue("WWW-Authenticate").orElseThrow());
            assertEquals(204, delete(jar.uri("/plants/1"), both).statusCode());
            assertEquals(200, create(jar.uri("/plants"), STATIC_TOKEN, 2).statusCode());
            assertEquals(204, delete(jar.uri("/plants/2"), STATIC_TOKEN).statusCode());

            try (var other = IdentityProvider.start()) {
                var foreign = create(jar.uri("/plants"), other.token("intruder", "plants:create"), 3);
                assertEquals(401, foreign.statusCode());
                assertEquals("Bearer realm=\"plantstore\", error=\"invalid_token\"",
                        foreign.headers().firstValue("WWW-Authenticate").orElseThrow());
            }
            String document = HTTP.send(HttpRequest.newBuilder(jar.uri("/openapi.json")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(document.contains("\"openIdConnectUrl\":\"" + provider.issuer()
                    + "/.well-known/openid-configuration\""), document);
            String metrics = HTTP.send(HttpRequest.newBuilder(jar.managementUri("/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("plantstore_tokens_refused_total{reason=\"insufficient_scope\"} 1.0"), metrics);
            assertTrue(metrics.contains("plantstore_tokens_refused_total{reason=\"issuer\"} 1.0"), metrics);
            output = jar.stopAndCollectOutput();
        }
        assertTrue(output.lines().anyMatch(line -> line.contains("\"message\":\"127.0.0.1 POST /plants 200")
                && line.contains("\"principal\":\"inventory-service\"")), output);
        assertTrue(output.lines().anyMatch(line -> line.contains("\"message\":\"127.0.0.1 DELETE /plants/2 204")
                && line.contains("\"principal\":\"ci-bot\"")), output);
        assertFalse(output.contains(creator), "a token is never logged");
        assertFalse(output.contains(STATIC_TOKEN), "a token is never logged");
    }

    @Test
    void aProviderDownAtStartUpDoesNotStopTheServerAndItsTokensGet503UntilItIsUp() throws Exception {
        int port = Sockets.freePort();
        try (var provider = IdentityProvider.notStartedOn(port);
             var jar = start(provider.issuer())) {
            String token = provider.signedToken("late-service", "plants:create");
            var unavailable = create(jar.uri("/plants"), token, 1);
            assertEquals(503, unavailable.statusCode());
            assertTrue(Integer.parseInt(unavailable.headers().firstValue("Retry-After").orElseThrow()) >= 1);
            assertEquals(200, create(jar.uri("/plants"), STATIC_TOKEN, 2).statusCode(), "static tokens still work");

            provider.startServer();
            assertTrue(dev.plantstore.testkit.Poll.until(dev.plantstore.testkit.Poll.PATIENCE,
                    java.time.Duration.ofMillis(200), () -> create(jar.uri("/plants"), token, 1).statusCode() == 200),
                    "accepted once the provider is up and the fetch interval has passed");
        }
    }
}
