package dev.plantstore.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Just enough of the W3C WebDriver protocol to drive Debian's headless Chromium through its chromedriver: open a
 * page, find elements by CSS, click, type, read text, take a screenshot. A dozen calls do not warrant Selenium's
 * dependency tree, and nothing here downloads a browser or a driver.
 */
final class WebDriver implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Process driver;
    private final String base;
    private final String session;

    private WebDriver(Process driver, String base, String session) {
        this.driver = driver;
        this.base = base;
        this.session = session;
    }

    /** Starts chromedriver on a free port and a headless Chromium session with a fresh profile. */
    static WebDriver start(Path profile) throws Exception {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process driver = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port)
                .redirectErrorStream(true)
                .redirectOutput(Files.createTempFile(profile.getParent(), "chromedriver", ".log").toFile())
                .start();
        String base = "http://127.0.0.1:" + port;
        awaitReady(base, driver);
        var options = Map.of(
                "binary", CHROMIUM.toString(),
                // The flags this machine needs: no sandbox as root, and nothing that calls out to the network.
                "args", List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--user-data-dir=" + profile, "--window-size=1280,2200"));
        var capabilities = Map.of("capabilities",
                Map.of("alwaysMatch", Map.of("browserName", "chrome", "goog:chromeOptions", options)));
        try {
            JsonNode created = call("POST", base + "/session", capabilities);
            String session = created.get("value").get("sessionId").asText();
            var webDriver = new WebDriver(driver, base, session);
            webDriver.post("/timeouts", Map.of("implicit", 15_000, "pageLoad", 30_000));
            return webDriver;
        } catch (RuntimeException | IOException e) {
            driver.destroyForcibly();
            throw e;
        }
    }

    private static void awaitReady(String base, Process driver) throws Exception {
        boolean ready = Poll.until(Duration.ofSeconds(20), Duration.ofMillis(100), () -> {
            try {
                return call("GET", base + "/status", null).get("value").get("ready").asBoolean();
            } catch (IOException e) {
                if (!driver.isAlive()) {
                    throw new IllegalStateException("chromedriver exited with " + driver.exitValue(), e);
                }
                return false;
            }
        });
        if (!ready) {
            throw new IllegalStateException("chromedriver did not get ready within 20 s");
        }
    }

    void open(String url) throws Exception {
        post("/url", Map.of("url", url));
    }

    String currentUrl() throws Exception {
        return get("/url").get("value").asText();
    }

    /** The first element matching {@code css}, waiting up to the implicit time-out for it to appear. */
    String find(String css) throws Exception {
        return post("/element", Map.of("using", "css selector", "value", css)).get("value").get(ELEMENT).asText();
    }

    void click(String css) throws Exception {
        post("/element/" + find(css) + "/click", Map.of());
    }

    void replaceText(String css, String text) throws Exception {
        String element = find(css);
        post("/element/" + element + "/clear", Map.of());
        post("/element/" + element + "/value", Map.of("text", text));
    }

    String text(String css) throws Exception {
        return get("/element/" + find(css) + "/text").get("value").asText();
    }

    /** Waits until the element's text is {@code expected}, and returns the last text seen. */
    String awaitText(String css, String expected, Duration within) throws Exception {
        String[] seen = {""};
        Poll.until(within, Duration.ofMillis(100), () -> {
            seen[0] = text(css).strip();
            return seen[0].equals(expected);
        });
        return seen[0];
    }

    void screenshot(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(get("/screenshot").get("value").asText()));
    }

    private JsonNode post(String path, Object body) throws Exception {
        return call("POST", base + "/session/" + session + path, body);
    }

    private JsonNode get(String path) throws Exception {
        return call("GET", base + "/session/" + session + path, null);
    }

    private static JsonNode call(String method, String url, Object body) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        }
        HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        JsonNode answer = JSON.readTree(response.body());
        if (response.statusCode() != 200) {
            JsonNode value = answer.path("value");
            throw new IllegalStateException("WebDriver " + method + " " + url + " failed: "
                    + value.path("error").asText() + ": " + value.path("message").asText());
        }
        return answer;
    }

    @Override
    public void close() {
        try {
            call("DELETE", base + "/session/" + session, null);
        } catch (Exception e) {
            // The browser is going away either way.
        } finally {
            driver.destroy();
        }
    }
}
