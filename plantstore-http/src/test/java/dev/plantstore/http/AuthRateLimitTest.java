package dev.plantstore.http;

import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import io.javalin.testtools.HttpClient;
import io.javalin.testtools.Response;
import java.net.http.HttpRequest.BodyPublishers;
import org.junit.jupiter.api.Test;

/** Guessing tokens is slow: past the limit of refused tokens, an address gets 429 without its token being checked. */
class AuthRateLimitTest {

    private static Response deleteWith(HttpClient client, String token) {
        return client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())
                .header("Authorization", "Bearer " + token));
    }

    @Test
    void pastTheLimitOfRefusedTokensAnAddressGets429WithRetryAfterEvenWithTheRightToken() {
        withServer(TestApi.api(PlantStores.inMemory()).withAuthFailureLimit(3), (server, client) -> {
            for (int i = 0; i < 3; i++) {
                assertError(deleteWith(client, "guess" + i), 401);
            }
            var limited = deleteWith(client, TestApi.TOKEN);
            String message = assertError(limited, 429);
            assertTrue(message.startsWith("too many refused tokens from this address; retry after "), message);
            long retryAfter = Long.parseLong(limited.headers().get("Retry-After").get(0));
            assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);
            assertEquals(200, client.get("/health").code(), "paths without a token are not limited");
        });
    }

    @Test
    void missingTokensDoNotCountOnlyRefusedOnes() {
        withServer(TestApi.api(PlantStores.inMemory()).withAuthFailureLimit(3), (server, client) -> {
            for (int i = 0; i < 10; i++) {
                assertError(client.request("/plants/1", request -> request.delete(BodyPublishers.noBody())), 401);
            }
            assertError(deleteWith(client, TestApi.TOKEN), 404);
        });
    }

    @Test
    void theDefaultLimitIsThirtyAMinute() {
        withServer(PlantStores.inMemory(), (server, client) -> {
            for (int i = 0; i < PlantStoreApi.DEFAULT_AUTH_FAILURE_LIMIT; i++) {
                assertError(deleteWith(client, "guess" + i), 401);
            }
            assertError(deleteWith(client, "guess"), 429);
        });
    }

    @Test
    void zeroTurnsTheLimitOff() {
        withServer(TestApi.api(PlantStores.inMemory()).withAuthFailureLimit(0), (server, client) -> {
            for (int i = 0; i < 100; i++) {
                assertError(deleteWith(client, "guess" + i), 401);
            }
            assertError(deleteWith(client, TestApi.TOKEN), 404);
        });
    }
}
