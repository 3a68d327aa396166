package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import io.javalin.Javalin;
import io.javalin.testtools.HttpClient;
import io.javalin.testtools.JavalinTest;
import io.javalin.testtools.Response;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a token grants decides what it may do (RFC 6750 section 3.1): a valid token without the operation's scope is
 * 403 {@code insufficient_scope}; a token that cannot be checked now is 503 with {@code Retry-After} and counts as no
 * refusal; the admitted principal is the request's, for the log and for an embedder's handlers.
 */
class TokenScopesTest {

    /** Tokens by what they are: each grants what its name says, "later" cannot be checked now. */
    private static final TokenVerifier VERIFIER = token -> switch (token) {
        case "creator" -> Verification.valid("alice", Set.of("plants:create"));
        case "deleter" -> Verification.valid("bob", Set.of("plants:delete"));
        case "both" -> Verification.valid("carol", Set.of("plants:create", "plants:delete"));
        case "renamed" -> Verification.valid("dave", Set.of("write", "remove"));
        case "later" -> Verification.unavailable(Duration.ofSeconds(7));
        case "expired" -> Verification.invalid(Verification.Reason.EXPIRED);
        default -> Verification.invalid(Verification.Reason.UNKNOWN_TOKEN);
    };

    private final PlantStore store = PlantStores.inMemory();

    private PlantStoreApi api() {
        return PlantStoreApi.of(store, VERIFIER);
    }

    @Test
    void aCreateWithoutTheCreateScopeIs403AndStoresNothing() {
        withServer(api(), (server, client) -> {
            Response response = create(client, "deleter", 1);
            assertEquals("the bearer token does not grant scope plants:create", assertError(response, 403));
            assertEquals("Bearer realm=\"plantstore\", error=\"insufficient_scope\", scope=\"plants:create\"",
                    response.headers().get("WWW-Authenticate").get(0));
            assertEquals(404, delete(client, "both", 1).code());
        });
    }

    @Test
    void aDeleteWithoutTheDeleteScopeIs403AndDeletesNothing() {
        withServer(api(), (server, client) -> {
            assertEquals(200, create(client, "creator", 1).code());
            Response response = delete(client, "creator", 1);
            assertError(response, 403);
            assertEquals("Bearer realm=\"plantstore\", error=\"insufficient_scope\", scope=\"plants:delete\"",
                    response.headers().get("WWW-Authenticate").get(0));
            assertEquals(204, delete(client, "deleter", 1).code());
        });
    }

    @Test
    void eachOperationNeedsOnlyItsOwnScope() {
        withServer(api(), (server, client) -> {
            assertEquals(200, create(client, "creator", 1).code());
            assertEquals(204, delete(client, "deleter", 1).code());
        });
    }

    @Test
    void theScopesCanBeNamedOtherwise() {
        withServer(api().withScopes("write", "remove"), (server, client) -> {
            assertEquals(200, create(client, "renamed", 1).code());
            assertEquals(204, delete(client, "renamed", 1).code());
            assertEquals("Bearer realm=\"plantstore\", error=\"insufficient_scope\", scope=\"write\"",
                    create(client, "both", 2).headers().get("WWW-Authenticate").get(0));
        });
    }

    @Test
    void scopeNamesThatCannotBeQuotedInAChallengeAreRefusedBySettingOrCheckingThem() {
        for (String scope : List.of("", "a b", "a\"b", "a\\b", "é")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> api().withScopes(scope, "remove"), scope);
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> PlantStoreApi.requireScope(scope), scope);
        }
    }

    @Test
    void aTokenThatCannotBeCheckedNowIs503WithRetryAfterAndIsNeverCountedAsRefused() {
        withServer(api().withAuthFailureLimit(1), (server, client) -> {
            for (int i = 0; i < 3; i++) {
                Response response = create(client, "later", 1);
                assertError(response, 503);
                assertEquals("7", response.headers().get("Retry-After").get(0));
            }
            assertEquals(200, create(client, "both", 1).code(), "the address was not limited");
        });
    }

    @Test
    void anInvalidTokenIsStill401AndCounted() {
        withServer(api().withAuthFailureLimit(1), (server, client) -> {
            Response refused = create(client, "forged", 1);
            assertError(refused, 401);
            assertEquals(BearerAuth.INVALID_TOKEN_CHALLENGE, refused.headers().get("WWW-Authenticate").get(0));
            assertError(create(client, "both", 1), 429);
        });
    }

    @Test
    void refusedTokensAreCountedByReasonAnInvalidOneByTheVerifiersReason() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        withServer(api().withMetrics(registry), (server, client) -> {
            create(client, "forged", 1);
            create(client, "expired", 1);
            delete(client, "expired", 1);
            create(client, "deleter", 1);
            delete(client, "creator", 1);
            create(client, "later", 1);
            create(client, "both", 1);
        });
        String scrape = registry.scrape();
        assertEquals(Map.of("unknown_token", 1.0, "expired", 2.0, "signature", 0.0, "insufficient_scope", 2.0,
                "keys_unavailable", 1.0), Map.of(
                "unknown_token", value(scrape, "unknown_token"),
                "expired", value(scrape, "expired"),
                "signature", value(scrape, "signature"),
                "insufficient_scope", value(scrape, "insufficient_scope"),
                "keys_unavailable", value(scrape, "keys_unavailable")));
        assertFalse(scrape.contains("reason=\"invalid_token\""), scrape);
    }

    /** The server's log says why a token was refused; the client is told no more than before, whatever the reason. */
    @Test
    void theAccessLineNamesWhyATokenWasRefusedAndTheAnswerDoesNot() {
        List<Pattern> lines = Stream.of("POST /plants 401 [0-9.]+ms - token refused: expired",
                        "POST /plants 401 [0-9.]+ms - token refused: unknown_token",
                        "DELETE /plants/1 403 [0-9.]+ms - token refused: insufficient_scope")
                .map(line -> Pattern.compile(line + "$", Pattern.MULTILINE)).toList();
        List<Response> refused = new ArrayList<>();
        String log = LogCapture.awaiting(lines, () -> withServer(api(), (server, client) -> {
            refused.add(create(client, "expired", 1));
            refused.add(create(client, "forged", 1));
            delete(client, "creator", 1);
        }));
        for (Pattern line : lines) {
            assertTrue(line.matcher(log).find(), line + " in\n" + log);
        }
        for (Response response : refused) {
            assertEquals("bearer token is not valid", assertError(response, 401));
            assertEquals(List.of(BearerAuth.INVALID_TOKEN_CHALLENGE), response.headers().get("WWW-Authenticate"));
        }
    }

    @Test
    void anEmbeddersHandlerUnderPlantsSeesTheCaller() {
        Javalin app = Javalin.create(config -> {
            config.routes.get("/plants/whoami", ctx -> ctx.result(PlantStoreApi.caller(ctx)
                    .map(caller -> caller.principal() + " " + caller.grants("plants:delete"))
                    .orElse("nobody")));
            config.routes.get("/open", ctx -> ctx.result(PlantStoreApi.caller(ctx).isPresent() + ""));
            api().mount(config);
        });
        JavalinTest.test(app, (server, client) -> {
            assertEquals("false", client.get("/open", request -> request.header("Authorization", "Bearer deleter"))
                    .body().string(), "no token is judged where none is needed");
            assertEquals("bob true", client.get("/plants/whoami",
                    request -> request.header("Authorization", "Bearer deleter")).body().string());
        });
    }

    private static double value(String scrape, String reason) {
        String series = "plantstore_tokens_refused_total{reason=\"" + reason + "\"} ";
        return scrape.lines().filter(line -> line.startsWith(series))
                .mapToDouble(line -> Double.parseDouble(line.substring(series.length())))
                .findFirst().orElseThrow(() -> new AssertionError("no " + series + " in\n" + scrape));
    }

    private static Response create(HttpClient client, String token, long id) {
        return TestApi.post(client, BodyPublishers.ofString("{\"id\":" + id + ",\"name\":\"Fern\"}"),
                request -> request.header("Authorization", "Bearer " + token).header("Content-Type",
                        "application/json"));
    }

    private static Response delete(HttpClient client, String token, long id) {
        return client.request("/plants/" + id, request -> request.delete(BodyPublishers.noBody())
                .header("Authorization", "Bearer " + token));
    }
}
