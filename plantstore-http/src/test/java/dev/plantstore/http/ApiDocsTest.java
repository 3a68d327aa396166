package dev.plantstore.http;

import static dev.plantstore.http.TestApi.withServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ApiDocsTest {

    private final PlantStore store = PlantStores.inMemory();

    @Test
    void theDocumentIsServedAsYamlAndAsTheSameJsonWithoutAToken() {
        withServer(store, (server, client) -> {
            var yaml = client.get("/openapi.yaml");
            var json = client.get("/openapi.json");
            assertEquals(200, yaml.code());
            assertEquals(200, json.code());
            assertEquals("application/yaml", yaml.headers().get("Content-Type").get(0));
            assertEquals("application/json", json.headers().get("Content-Type").get(0));
            var fromYaml = new YAMLMapper().readTree(yaml.body().string());
            assertEquals(fromYaml, new ObjectMapper().readTree(json.body().string()));
            assertEquals(new YAMLMapper().readTree(ApiDocsResource.yaml()), fromYaml);
        });
    }

    @Test
    void withAnIssuerTheDocumentOffersItsTokensWithEachOperationsScope() {
        var api = TestApi.api(store).withScopes("write", "remove")
                .withDocumentedIssuer(java.net.URI.create("https://idp.example/realms/plants/"));
        withServer(api, (server, client) -> {
            var document = new YAMLMapper().readTree(client.get("/openapi.yaml").body().string());
            assertEquals("openIdConnect", document.at("/components/securitySchemes/identityProvider/type").textValue());
            assertEquals("https://idp.example/realms/plants/.well-known/openid-configuration",
                    document.at("/components/securitySchemes/identityProvider/openIdConnectUrl").textValue());
            var create = document.at("/paths/~1plants/post/security");
            assertTrue(create.get(0).get("bearerAuth").isEmpty());
            assertEquals("write", create.get(1).get("identityProvider").get(0).textValue());
            var delete = document.at("/paths/~1plants~1{id}/delete/security");
            assertEquals("remove", delete.get(1).get("identityProvider").get(0).textValue());
            assertEquals(new YAMLMapper().readTree(ApiDocsResource.yaml()).at("/paths/~1health"),
                    document.at("/paths/~1health"), "the rest is unchanged");
        });
    }

    @Test
    void theDocumentDescribesVersion100MitAndBearerOnBothOperations() throws Exception {
        var document = new YAMLMapper().readTree(ApiDocsResource.yaml());
        assertEquals("Plant Store", document.at("/info/title").textValue());
        assertEquals("1.0.0", document.at("/info/version").textValue());
        assertEquals("MIT", document.at("/info/license/name").textValue());
        assertEquals("bearer", document.at("/components/securitySchemes/bearerAuth/scheme").textValue());
        assertTrue(document.at("/security/0").has("bearerAuth"));
        assertTrue(document.at("/paths/~1plants/post/security").isMissingNode(), "inherits bearer");
        assertTrue(document.at("/paths/~1plants~1{id}/delete/security").isMissingNode(), "inherits bearer");
        assertEquals("int64", document.at("/paths/~1plants~1{id}/delete/parameters/0/schema/format").textValue());
        assertTrue(document.at("/components/schemas/NewPlant/properties/tag/nullable").booleanValue());
    }

    @Test
    void theDocumentListsEveryErrorStatusTheServerAnswers() throws Exception {
        var document = new YAMLMapper().readTree(ApiDocsResource.yaml());
        var create = document.at("/paths/~1plants/post/responses");
        var delete = document.at("/paths/~1plants~1{id}/delete/responses");
        for (String status : new String[] {"200", "400", "401", "409", "413", "415", "429", "500", "503"}) {
            assertTrue(create.has(status), "create documents " + status);
        }
        for (String status : new String[] {"204", "400", "401", "404", "429", "500", "503"}) {
            assertTrue(delete.has(status), "delete documents " + status);
        }
        assertTrue(document.at("/components/responses").has("MethodNotAllowed"));
    }

    @Test
    void everyIdDescriptionWarnsJavaScriptClientsAboutIdsBeyondTwoToThe53() throws Exception {
        var document = new YAMLMapper().readTree(ApiDocsResource.yaml());
        for (String pointer : new String[] {"/paths/~1plants~1{id}/delete/parameters/0/description",
                "/components/schemas/NewPlant/properties/id/description"}) {
            String description = document.at(pointer).textValue();
            assertTrue(description.contains("2^53") && description.contains("JavaScript"),
                    pointer + ": " + description);
        }
    }

    @Test
    void theDocsPageIsSwaggerUiServedLocally() {
        withServer(store, (server, client) -> {
            var page = client.get("/docs");
            assertEquals(200, page.code());
            assertTrue(page.headers().get("Content-Type").get(0).startsWith("text/html"));
            String html = page.body().string();
            assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing from the internet");
            for (String asset : new String[] {"docs/swagger-ui.css", "docs/swagger-ui-bundle.js", "docs/init.js"}) {
                assertTrue(html.contains("\"" + asset + "\""), asset);
                var response = client.get("/" + asset);
                assertEquals(200, response.code(), asset);
                assertTrue(response.body().string().length() > 100, asset);
            }
        });
    }

    @Test
    void theDocsPageMayNotBeFramedAndLoadsOnlyFromItsOwnOrigin() {
        withServer(store, (server, client) -> {
            var page = client.get("/docs");
            var policies = page.headers().get("Content-Security-Policy");
            String policy = policies == null ? "" : String.join(";", policies);
            var directives = java.util.Arrays.stream(policy.split(";")).map(String::strip).toList();
            assertTrue(directives.contains("frame-ancestors 'none'"), policy);
            assertTrue(directives.contains("default-src 'none'"), policy);
            assertTrue(directives.contains("script-src 'self'"), policy);
            assertTrue(directives.contains("connect-src 'self'"), policy);
            assertTrue(directives.contains("base-uri 'none'"), policy);
            assertEquals(List.of("DENY"), page.headers().get("X-Frame-Options"));
        });
    }

    @Test
    void docsWithATrailingSlashRedirectsToThePageItsRelativeUrlsWorkFrom() {
        withServer(store, (server, client) -> {
            var response = client.get("/docs/", request -> request.header("Accept", "text/html"));
            assertEquals(301, response.code());
            assertEquals("../docs", response.headers().get("Location").get(0));
        });
    }

    @Test
    void onlyTheDocsPagesOwnAssetsAreServed() {
        withServer(store, (server, client) -> {
            assertEquals(404, client.get("/docs/index.html").code());
            // An encoded slash is ambiguous (a separator or a character?), so the server refuses it outright.
            assertEquals(400, client.get("/docs/..%2F..%2Fpom.properties").code());
        });
    }

    @Test
    void theDocsAndTheDocumentCanBeTurnedOff() {
        withServer(TestApi.api(store).withDocs(false), (server, client) -> {
            assertEquals(404, client.get("/docs").code());
            assertEquals(404, client.get("/openapi.json").code());
            assertEquals(404, client.get("/openapi.yaml").code());
        });
    }
}
