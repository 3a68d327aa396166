package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.create;
import static dev.plantstore.http.TestApi.delete;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A failure nobody planned for is a 500 with a generic message; the detail goes only to the log. */
class UnexpectedFailureTest {

    private static final String DETAIL = "disk on fire at /var/secret/path";
    private static final Pattern REFERENCE = Pattern.compile("internal server error; reference ([0-9a-f]{32})");

    /** A store whose every operation fails, as a broken backend would. */
    private static final PlantStore BROKEN = new PlantStore() {
        @Override
        public CreateResult create(NewPlant plant) {
            throw new IllegalStateException(DETAIL);
        }

        @Override
        public boolean delete(long id) {
            throw new IllegalStateException(DETAIL);
        }

        @Override
        public Optional<Plant> find(long id) {
            throw new IllegalStateException(DETAIL);
        }
    };

    private static void assertGeneric500WithReferenceInTheLog(io.javalin.testtools.Response response, String log) {
        String message = assertError(response, 500);
        var reference = REFERENCE.matcher(message);
        assertTrue(reference.matches(), message);
        assertFalse(response.body().string().contains(DETAIL));
        assertTrue(log.contains("request " + reference.group(1) + " failed"), log);
        assertTrue(log.contains(DETAIL), log);
    }

    @Test
    void failingCreateIs500WithAGenericMessageAndTheDetailLogged() {
        var log = LogCapture.during(() -> withServer(BROKEN, (server, client) -> {
            var response = create(client, "{\"id\":1,\"name\":\"Fern\"}");
            assertEquals(500, response.code());
            LogCapture.keep(response);
        }));
        assertGeneric500WithReferenceInTheLog(LogCapture.kept(), log);
    }

    @Test
    void failingDeleteIs500WithAGenericMessageAndTheDetailLogged() {
        var log = LogCapture.during(() -> withServer(BROKEN, (server, client) -> LogCapture.keep(delete(client, "1"))));
        assertGeneric500WithReferenceInTheLog(LogCapture.kept(), log);
    }

    @Test
    void failingTokenVerifierIs500NotALeak() {
        TokenVerifier broken = token -> {
            throw new IllegalStateException(DETAIL);
        };
        var log = LogCapture.during(() -> withServer(PlantStoreApi.of(PlantStores.inMemory(), broken),
                (server, client) -> LogCapture.keep(delete(client, "1"))));
        assertGeneric500WithReferenceInTheLog(LogCapture.kept(), log);
    }

    @Test
    void clientErrorsLogNoStackTrace() {
        var log = LogCapture.during(() -> withServer(PlantStores.inMemory(), (server, client) -> {
            assertError(create(client, "{not json"), 400);
            assertError(delete(client, "x"), 400);
            assertError(delete(client, "1"), 404);
            assertError(client.get("/nowhere"), 404);
            assertError(client.request("/plants", request -> request.get().header("Authorization", BEARER)), 405);
        }));
        assertFalse(log.contains("Exception"), log);
        assertFalse(log.contains("\tat "), log);
    }
}
