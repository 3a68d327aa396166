package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.Plant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.testkit.RequiredTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person on /docs: Debian's headless Chromium loads Swagger UI, authorises with a token, creates a plant through the
 * page, and the plant is in the store. Skipped, naming what is missing, where Chromium or its driver is not installed;
 * {@code .ci/run} installs both and sets {@value #REQUIRED_VARIABLE}, so under CI the test runs or fails.
 */
class DocsBrowserTest {

    static final String REQUIRED_VARIABLE = "PLANTSTORE_TEST_BROWSER";

    @TempDir
    Path profile;

    private static void requireBrowser() {
        RequiredTools.require("Browser test", REQUIRED_VARIABLE,
                Map.of(WebDriver.CHROMIUM, "chromium", WebDriver.CHROMEDRIVER, "chromium-driver"));
    }

    @Test
    void aPersonAuthorisesOnTheDocsPageAndCreatesAPlant() throws Exception {
        requireBrowser();
        PlantStore store = PlantStores.inMemory();
        try (var server = PlantStoreServer.start(TestApi.api(store), "127.0.0.1", 0);
             var browser = WebDriver.start(profile.resolve("chromium"))) {
            browser.open("http://127.0.0.1:" + server.port() + "/docs");

            browser.click(".btn.authorize");
            browser.replaceText(".auth-container input", TestApi.TOKEN);
            browser.click(".auth-btn-wrapper .modal-btn.authorize");
            browser.click(".auth-btn-wrapper .btn-done");

            browser.click("#operations-plants-createPlant .opblock-summary");
            browser.replaceText("#operations-plants-createPlant textarea.body-param__text",
                    "{\"id\": 4242, \"name\": \"Browser Fern\", \"tag\": \"pteridophyte\"}");
            browser.click("#operations-plants-createPlant .execute");
            String status = browser.awaitText(
                    "#operations-plants-createPlant .live-responses-table tbody td.response-col_status", "200",
                    Duration.ofSeconds(15));
            browser.screenshot(Path.of("target", "docs-create-plant.png"));

            assertEquals("200", status);
            assertEquals(Optional.of(new Plant("Browser Fern", "pteridophyte")), store.find(4242));
            assertTrue(Files.size(Path.of("target", "docs-create-plant.png")) > 10_000);
        }
    }

    @Test
    void theDocsPageRendersFromTheAddressWithATrailingSlashToo() throws Exception {
        requireBrowser();
        try (var server = PlantStoreServer.start(TestApi.api(PlantStores.inMemory()), "127.0.0.1", 0);
             var browser = WebDriver.start(profile.resolve("chromium"))) {
            browser.open(server.uri().resolve("/docs/").toString());

            // The operation appears only once Swagger UI's script has loaded and fetched the document.
            String summary = browser.text("#operations-plants-createPlant .opblock-summary-path");
            assertEquals("/plants", summary.strip());
            assertEquals(server.uri().resolve("/docs").toString(), browser.currentUrl());
        }
    }
}
