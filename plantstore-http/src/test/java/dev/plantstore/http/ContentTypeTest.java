package dev.plantstore.http;

import static dev.plantstore.http.TestApi.BEARER;
import static dev.plantstore.http.TestApi.assertError;
import static dev.plantstore.http.TestApi.post;
import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.ErrorResponses;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContentTypeTest {

    private static final String PLANT = "{\"id\":1,\"name\":\"Fern\"}";

    private final PlantStore store = PlantStores.inMemory();

    @ParameterizedTest(name = "Content-Type: {0}")
    @ValueSource(strings = {"text/plain", "application/xml", "application/x-www-form-urlencoded",
            "application/jsonx", "application/json-patch+json", "text/json",
            "application/json; charset=iso-8859-1", "application/json;charset=utf-16"})
    void contentTypeOtherThanJsonIs415(String contentType) {
        withServer(store, (server, client) -> {
            var response = post(client, BodyPublishers.ofString(PLANT),
                    request -> request.header("Authorization", BEARER).header("Content-Type", contentType));
            assertError(response, 415);
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @Test
    void a415SaysWhichContentTypeArrived() {
        withServer(store, (server, client) -> {
            var form = post(client, BodyPublishers.ofString(PLANT), request -> request.header("Authorization", BEARER)
                    .header("Content-Type", "application/x-www-form-urlencoded"));
            assertEquals("Content-Type must be application/json, got 'application/x-www-form-urlencoded'",
                    assertError(form, 415));
            var latin = post(client, BodyPublishers.ofString(PLANT), request -> request.header("Authorization", BEARER)
                    .header("Content-Type", "application/json; charset=iso-8859-1"));
            assertEquals("Content-Type charset must be utf-8, got 'iso-8859-1'", assertError(latin, 415));
            String longType = "text/" + "x".repeat(100);
            var tooLong = post(client, BodyPublishers.ofString(PLANT),
                    request -> request.header("Authorization", BEARER).header("Content-Type", longType));
            assertEquals("Content-Type must be application/json, got 'text/" + "x".repeat(59) + "...'",
                    assertError(tooLong, 415));
        });
    }

    @Test
    void missingContentTypeIs415() {
        withServer(store, (server, client) -> {
            var response = post(client, BodyPublishers.ofString(PLANT),
                    request -> request.header("Authorization", BEARER));
            assertEquals("Content-Type header is required: application/json", assertError(response, 415));
        });
    }

    /** Raw, because the JDK client folds two values of one header into one line. */
    @Tag(TestTransport.HTTP1_SOCKET)
    @ParameterizedTest(name = "then Content-Type: {0}")
    @ValueSource(strings = {"text/plain", "application/json"})
    void twoContentTypeHeadersAre400LikeTwoAuthorizationHeaders(String second) {
        withServer(store, (server, client) -> {
            String response = RawHttp.exchange(server.port(), "POST /plants HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: " + BEARER + "\r\nContent-Type: application/json\r\nContent-Type: " + second
                    + "\r\nContent-Length: " + PLANT.length() + "\r\nConnection: close\r\n\r\n" + PLANT);
            ErrorResponses.assertError(response, 400);
            assertTrue(response.endsWith("\"send one Content-Type header, not 2\"}"), response);
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @ParameterizedTest(name = "Content-Encoding: {0}")
    @ValueSource(strings = {"gzip", "GZIP", "br", "deflate", "x-gzip", "identity, gzip"})
    void aCompressedBodyIs415NamingTheOneCodingAccepted(String coding) {
        withServer(store, (server, client) -> {
            var response = post(client, BodyPublishers.ofString(PLANT), request -> request
                    .header("Authorization", BEARER).header("Content-Type", "application/json")
                    .header("Content-Encoding", coding));
            assertEquals("Content-Encoding must be identity: send the body uncompressed", assertError(response, 415));
            assertEquals(List.of("identity"), response.headers().get("Accept-Encoding"));
            assertEquals(Optional.empty(), store.find(1));
        });
    }

    @Test
    void theIdentityCodingIsTheBodyAsItIs() {
        withServer(store, (server, client) -> {
            var response = post(client, BodyPublishers.ofString(PLANT), request -> request
                    .header("Authorization", BEARER).header("Content-Type", "application/json")
                    .header("Content-Encoding", "identity"));
            assertEquals(200, response.code());
        });
    }

    @ParameterizedTest(name = "Content-Type: {0}")
    @ValueSource(strings = {"application/json", "Application/JSON", "application/json; charset=utf-8",
            "application/json;charset=UTF-8", "application/json; charset=\"utf-8\"", "application/json; v=1"})
    void jsonWithParametersLikeCharsetUtf8IsAccepted(String contentType) {
        withServer(store, (server, client) -> {
            var response = post(client, BodyPublishers.ofString(PLANT),
                    request -> request.header("Authorization", BEARER).header("Content-Type", contentType));
            assertEquals(200, response.code());
        });
    }
}
