package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import io.javalin.http.Handler;
import io.javalin.testtools.JavalinTest;
import io.javalin.testtools.TestConfig;
import java.net.http.HttpRequest.BodyPublishers;
import org.junit.jupiter.api.Test;

/**
 * The contract check itself: a server that answers off the document makes the test that saw it fail. The servers
 * here are deliberately wrong stand-ins, not the API.
 */
class ContractCheckTest {

    private static final TestConfig CHECKED = new TestConfig(false, false, new ContractCheckingHttpClient());

    private static AssertionError createAgainst(Handler wrongAnswer) {
        Javalin wrong = Javalin.create(config -> config.routes.post("/plants", wrongAnswer));
        return assertThrows(AssertionError.class, () -> JavalinTest.test(wrong, CHECKED, (server, client) ->
                TestApi.create(client, "{\"id\":1,\"name\":\"Fern\"}")));
    }

    @Test
    void anUndocumentedStatusFails() {
        var failure = createAgainst(ctx -> ctx.status(418).contentType("application/json")
                .result("{\"error\":418,\"message\":\"teapot\"}"));
        assertTrue(failure.getMessage().contains("breaks openapi.yaml: POST /plants -> 418"), failure.getMessage());
    }

    @Test
    void aBodyOffItsSchemaFails() {
        var failure = createAgainst(ctx -> ctx.status(200).contentType("application/json").result("{\"name\":5}"));
        assertTrue(failure.getMessage().contains("breaks openapi.yaml"), failure.getMessage());
    }

    @Test
    void anErrorBodyWithExtraFieldsFails() {
        var failure = createAgainst(ctx -> ctx.status(409).contentType("application/json")
                .result("{\"error\":409,\"message\":\"taken\",\"stack\":\"...\"}"));
        assertTrue(failure.getMessage().contains("breaks openapi.yaml"), failure.getMessage());
    }

    @Test
    void aWrongContentTypeFails() {
        var failure = createAgainst(ctx -> ctx.status(200).contentType("text/plain").result("{\"name\":\"Fern\"}"));
        assertTrue(failure.getMessage().contains("breaks openapi.yaml"), failure.getMessage());
    }

    @Test
    void theRealApiPassesTheSameCheck() {
        TestApi.withServer(dev.plantstore.core.PlantStores.inMemory(), (server, client) ->
                assertEquals(200, TestApi.post(client, BodyPublishers.ofString("{\"id\":1,\"name\":\"Fern\"}"),
                        request -> request.header("Authorization", TestApi.BEARER)
                                .header("Content-Type", "application/json")).code()));
    }
}
