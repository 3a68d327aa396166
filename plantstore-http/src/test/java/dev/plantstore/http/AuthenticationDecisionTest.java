package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.testkit.ErrorResponses;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request's token is judged once, where the refused-token limit sees it, and only on the paths that need one: what
 * a client can learn about a token, and how fast, is the same on every path.
 */
class AuthenticationDecisionTest {

    private static final int LIMIT = 3;

    private final AtomicInteger verifications = new AtomicInteger();
    private final PlantStoreServer server = PlantStoreServer.start(
            PlantStoreApi.of(PlantStores.inMemory(), token -> {
                verifications.incrementAndGet();
                return TokenVerifier.staticTokens(List.of(TestApi.TOKEN)).verify(token);
            }).withAuthFailureLimit(LIMIT), "127.0.0.1", 0);

    @AfterEach
    void stop() {
        server.close();
    }

    private String origin() {
        return "http://127.0.0.1:" + server.port();
    }

    /** The line and headers of a request that declares a one-byte body it never sends. */
    private static String headDeclaringABody(String requestLine, String... headers) {
        var head = new StringBuilder(requestLine).append(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("Content-Type: application/json\r\nContent-Length: 1\r\n\r\n").toString();
    }

    private static String statusLine(String response) {
        return response.substring(0, response.indexOf("\r\n"));
    }

    private static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"GET /health", "GET /health/live", "GET /openapi.json", "GET /nowhere"})
    void aPathThatNeedsNoTokenAnswersTheSameWhateverTokenARequestCarries(String requestLine) {
        String without = RawHttp.answerBeforeBody(origin(), headDeclaringABody(requestLine));
        for (String authorization : List.of("Bearer guess", TestApi.BEARER, "Basic eDp5")) {
            String with = RawHttp.answerBeforeBody(origin(),
                    headDeclaringABody(requestLine, "Authorization: " + authorization));
            assertEquals(statusLine(without), statusLine(with), authorization);
            assertEquals(body(without), body(with), authorization);
        }
        assertEquals(0, verifications.get(), "no token is looked at where none is needed");
    }

    @Test
    void guessesOnAPathThatNeedsNoTokenNeitherCountNorAreLimited() {
        for (int i = 0; i < LIMIT * 4; i++) {
            String response = RawHttp.answerBeforeBody(origin(),
                    headDeclaringABody("GET /health", "Authorization: Bearer guess" + i));
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        }
        ErrorResponses.assertError(RawHttp.answerBeforeBody(origin(),
                headDeclaringABody("DELETE /plants/1", "Authorization: " + TestApi.BEARER)), 404);
    }

    @Test
    void aLimitedAddressIsRefusedBeforeItsBodyIsReadEvenWithTheRightToken() {
        for (int i = 0; i < LIMIT; i++) {
            ErrorResponses.assertError(RawHttp.answerBeforeBody(origin(), RawHttp.createHead(1, "Connection: close",
                    "Authorization: Bearer guess" + i)), 401);
        }
        int before = verifications.get();
        String limited = RawHttp.answerBeforeBody(origin(),
                RawHttp.createHead(1, "Connection: close", "Authorization: " + TestApi.BEARER));
        ErrorResponses.assertError(limited, 429);
        assertTrue(limited.contains("\r\nRetry-After: "), limited);
        assertEquals(before, verifications.get(), "a limited address's token is not looked at");
    }

    @Test
    void eachRefusedTokenCountsOnceAndIsVerifiedOnce() {
        for (int i = 0; i < LIMIT; i++) {
            ErrorResponses.assertError(RawHttp.exchange(server.port(), RawHttp.createHead(2, "Connection: close",
                    "Authorization: Bearer guess" + i) + "{}"), 401);
        }
        assertEquals(LIMIT, verifications.get());
        ErrorResponses.assertError(RawHttp.exchange(server.port(), RawHttp.createHead(2, "Connection: close",
                "Authorization: Bearer guess") + "{}"), 429);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"POST /plants", "DELETE /plants/1", "GET /plants/1"})
    void twoAuthorizationHeadersAre400(String requestLine) {
        for (List<String> pair : List.of(List.of(TestApi.BEARER, TestApi.BEARER), List.of(TestApi.BEARER, "Bearer x"),
                List.of("Bearer x", TestApi.BEARER))) {
            String response = RawHttp.exchange(server.port(), headDeclaringABody(requestLine,
                    "Authorization: " + pair.get(0), "Authorization: " + pair.get(1)) + "{");
            ErrorResponses.assertError(response, 400);
            assertTrue(body(response).contains("one Authorization header"), response);
        }
        assertEquals(0, verifications.get(), "neither token is looked at");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"DELETE /plants/%FF", "DELETE /plants/%C0%AF", "DELETE /plants/%FF%FE", "POST /plants/%FF",
        "GET /plants/%FF", "DELETE /%FF"})
    void aMalformedPathWithAValidTokenIsRefusedInTheHouseStyle(String requestLine) {
        String response = RawHttp.exchange(server.port(),
                requestLine + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: " + TestApi.BEARER
                        + "\r\n\r\n");
        ErrorResponses.assertError(response, 400);
        assertTrue(response.contains("\r\nX-Content-Type-Options: nosniff\r\n"), response);
        assertTrue(response.contains("\r\nX-Request-Id: "), response);
    }
}
