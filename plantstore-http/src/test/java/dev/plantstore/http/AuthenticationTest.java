package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.TOKEN;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.post;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import dev.plantstore.testkit.ErrorResponses;
import io.javalin.testtools.HttpClient;
import io.javalin.testtools.Response;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AuthenticationTest {

    private static final String PLANT = "{\"id\":1,\"name\":\"Fern\"}";

    private final PlantStore store = PlantStores.inMemory();

    private static Response createWithAuthorization(HttpClient client, String authorization) {
        return post(client, BodyPublishers.ofString(PLANT), request -> {
            request.header("Content-Type", "application/json");
            return authorization == null ? request : request.header("Authorization", authorization);
        });
    }

    private static void assertChallenge(Response response, String expectedChallenge) {
        assertError(response, 401);
        assertEquals(List.of(expectedChallenge), response.headers().get("WWW-Authenticate"));
    }

    @Test
    void missingAuthorizationIs401WithBearerChallenge() {
        withServer(store, (server, client) -> {
            assertChallenge(createWithAuthorization(client, null), "Bearer realm=\"plantstore\"");
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @ParameterizedTest(name = "Authorization: {0}")
    @ValueSource(strings = {"Basic dXNlcjpwYXNz", "Token " + TOKEN, "Bearer" + TOKEN, TOKEN, "Bearer\t" + TOKEN})
    void otherSchemeIs401WithBearerChallengeWithoutErrorCode(String authorization) {
        withServer(store, (server, client) -> {
            Response response = createWithAuthorization(client, authorization);
            assertChallenge(response, "Bearer realm=\"plantstore\"");
            assertEquals("Authorization scheme must be Bearer", assertError(response, 401));
        });
    }

    @ParameterizedTest(name = "Authorization: [{0}]")
    @ValueSource(strings = {"Bearer", "Bearer ", "Bearer    "})
    void emptyTokenIs401WithBearerChallenge(String authorization) {
        withServer(store, (server, client) ->
                assertChallenge(createWithAuthorization(client, authorization), "Bearer realm=\"plantstore\""));
    }

    @ParameterizedTest(name = "Authorization: {0}")
    @ValueSource(strings = {"Bearer wrong", "Bearer " + TOKEN + "x", "Bearer " + TOKEN + " extra", "Bearer a,b"})
    void unknownTokenIs401WithInvalidTokenError(String authorization) {
        withServer(store, (server, client) -> {
            assertChallenge(createWithAuthorization(client, authorization),
                    "Bearer realm=\"plantstore\", error=\"invalid_token\"");
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @ParameterizedTest(name = "Authorization: {0}")
    @ValueSource(strings = {"bearer ", "BEARER ", "BeArEr ", "Bearer   "})
    void schemeNameIsCaseInsensitiveAndSpacesMayRepeat(String scheme) {
        withServer(store, (server, client) ->
                assertEquals(200, createWithAuthorization(client, scheme + TOKEN).code()));
    }

    @Tag(TestTransport.HTTP1_SOCKET)
    @Test
    void authenticationRunsBeforeTheBodyIsReadOrValidated() {
        withServer(store, (server, client) -> {
            var notJson = post(client, BodyPublishers.ofString("not json"),
                    request -> request.header("Content-Type", "application/json"));
            assertEquals(401, notJson.code());
            var wrongType = post(client, BodyPublishers.ofString(PLANT),
                    request -> request.header("Content-Type", "text/plain"));
            assertEquals(401, wrongType.code());
            String tooLarge = RawHttp.answerBeforeBody(client.getOrigin(),
                    RawHttp.createHead(PlantStoreApi.DEFAULT_MAX_BODY_BYTES + 1));
            ErrorResponses.assertError(tooLarge, 401);
        });
    }

    @Test
    void aCreateHasItsTokenVerifiedOnce() {
        var verifications = new AtomicInteger();
        TokenVerifier counting = token -> {
            verifications.incrementAndGet();
            return TOKEN.equals(token)
                    ? Verification.everyScope("test")
                    : Verification.invalid(Verification.Reason.UNKNOWN_TOKEN);
        };
        withServer(PlantStoreApi.of(store, counting), (server, client) ->
                assertEquals(200, createWithAuthorization(client, BEARER).code()));
        assertEquals(1, verifications.get());
    }

    @Test
    void deleteNeedsAValidTokenToo() {
        store.create(new NewPlant(1, "Fern"));
        withServer(store, (server, client) -> {
            var response = client.request("/plants/1", request -> request.delete(BodyPublishers.noBody()));
            assertChallenge(response, "Bearer realm=\"plantstore\"");
            var wrong = client.request("/plants/1",
                    request -> request.delete(BodyPublishers.noBody()).header("Authorization", "Bearer nope"));
            assertChallenge(wrong, "Bearer realm=\"plantstore\", error=\"invalid_token\"");
            assertTrue(store.find(1).isPresent());
        });
    }

    @Test
    void everyPathUnderPlantsNeedsATokenBeforeItIs404Or405() {
        withServer(store, (server, client) -> {
            assertEquals(401, client.get("/plants").code());
            assertEquals(401, client.get("/plants/1").code());
            assertEquals(401, client.get("/plants/1/leaves").code());
        });
    }

    @Test
    void theTokenIsNeverEchoed() {
        withServer(store, (server, client) -> {
            for (String authorization : List.of("Bearer " + TOKEN, "Bearer " + TOKEN + "x", "Basic " + TOKEN)) {
                Response response = createWithAuthorization(client, authorization);
                assertFalse(response.body().string().contains(TOKEN));
                var challenge = Optional.ofNullable(response.headers().get("WWW-Authenticate")).orElse(List.of());
                assertFalse(String.join(",", challenge).contains(TOKEN));
            }
        });
    }
}
