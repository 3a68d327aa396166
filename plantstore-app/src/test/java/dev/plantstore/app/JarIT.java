package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built jar, run as a user runs it: a separate process over real HTTP. */
class JarIT {

    private static final String TOKEN = "jar-test-token";
    /** A plant without a tag: the body of most creates here. */
    private static final String FERN = "{\"id\":1,\"name\":\"Fern\"}";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void createAndDeleteOverRealHttp() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN))) {
            var created = send(PlantRequests.create(jar.uri("/plants"), TOKEN,
                    PlantRequests.plantJson(1, "Monstera", "aroid")));
            assertEquals(200, created.statusCode());
            assertEquals("{\"name\":\"Monstera\",\"tag\":\"aroid\"}", created.body());
            assertEquals(409, send(PlantRequests.create(jar.uri("/plants"), TOKEN, FERN)).statusCode());
            assertEquals(204, send(PlantRequests.delete(jar.uri("/plants/1"), TOKEN)).statusCode());
            assertEquals(404, send(PlantRequests.delete(jar.uri("/plants/1"), TOKEN)).statusCode());
            assertEquals(401, send(PlantRequests.delete(jar.uri("/plants/1"), "wrong")).statusCode());
        }
    }

    @Test
    void startupPrintsOneListeningLineAndAccessLinesWithoutTheToken() throws Exception {
        String output;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN))) {
            send(PlantRequests.create(jar.uri("/plants"), TOKEN, FERN));
            output = jar.stopAndCollectOutput();
        }
        assertEquals(1, output.lines().filter(line -> line.startsWith("plantstore listening on http://")).count(),
                output);
        assertTrue(output.lines().anyMatch(line -> line.matches(
                ".* access - 127\\.0\\.0\\.1 POST /plants 200 \\d+\\.\\dms")), output);
        assertFalse(output.contains(TOKEN), output);
        assertFalse(output.contains("WARNING"), "no JVM warning on this JDK: " + output);
    }

    @Test
    void withNoTokenConfiguredOneIsGeneratedPrintedWithACurlExampleAndWorks() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of())) {
            String token = jar.generatedToken();
            assertTrue(jar.outputSoFar().contains(
                    "curl -i -X POST " + jar.uri("/plants") + " -H 'Authorization: Bearer " + token + "'"),
                    jar.outputSoFar());
            assertEquals(200, send(PlantRequests.create(jar.uri("/plants"), token, FERN)).statusCode());
        }
    }

    @Test
    void tokensFileIsRead() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "# ops\nfile-token\n");
        Files.setPosixFilePermissions(tokens, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        try (var jar = RunningJar.start(dir, Map.of(), "--tokens-file", tokens.toString())) {
            assertEquals(200, send(PlantRequests.create(jar.uri("/plants"), "file-token", FERN)).statusCode());
            assertFalse(jar.outputSoFar().contains("generated"), jar.outputSoFar());
        }
    }

    @Test
    void sigtermLetsARequestInFlightFinishEvenIfItsBodyPausesRefusesNewConnectionsAndExitsZero() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN))) {
            String body = "{\"id\":42,\"name\":\"Slow Fern\"}";
            try (var socket = new Socket("127.0.0.1", jar.port())) {
                socket.setSoTimeout(15_000);
                var out = socket.getOutputStream();
                // The interim 100 answer shows that the server has the request in hand before the stop begins.
                out.write(("POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TOKEN
                        + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "
                        + body.length() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String interim = readUntil(socket.getInputStream(), "\r\n\r\n");
                assertTrue(interim.startsWith("HTTP/1.1 100 "), interim);
                out.write(body.substring(0, 10).getBytes(StandardCharsets.US_ASCII));
                out.flush();

                long signalled = System.nanoTime();
                jar.process().destroy();
                awaitRefused(jar.port());
                // A client on a bad link: silent for longer than Jetty's own one-second cut-off while stopping.
                Duration silence = Duration.ofMillis(2_500).minusNanos(System.nanoTime() - signalled);
                assertFalse(Poll.until(silence, Duration.ofMillis(100), () -> !jar.process().isAlive()),
                        "waits for the request in flight");

                out.write(body.substring(10).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String response = readResponse(socket.getInputStream());
                assertTrue(response.startsWith("HTTP/1.1 200 "), response);
                assertTrue(response.endsWith("{\"name\":\"Slow Fern\"}"), response);
            }
            assertTrue(jar.process().waitFor(RunningJar.STOP_LIMIT.toSeconds(), TimeUnit.SECONDS), "exits");
            assertEquals(0, jar.process().exitValue());
            assertTrue(jar.outputSoFar().contains("plantstore stopped"), jar.outputSoFar());
        }
    }

    /** Waits until a new connection to the port is refused: the server stopped accepting. */
    private static void awaitRefused(int port) throws Exception {
        assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20), () -> refuses(port)),
                "new connections are still accepted");
    }

    private static boolean refuses(int port) throws IOException {
        try {
            new Socket("127.0.0.1", port).close();
            return false;
        } catch (ConnectException refused) {
            return true;
        }
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        var text = new StringBuilder();
        while (!text.toString().endsWith(end)) {
            int read = in.read();
            if (read < 0) {
                break;
            }
            text.append((char) read);
        }
        return text.toString();
    }

    private static String readResponse(InputStream in) throws IOException {
        var text = new StringBuilder();
        byte[] buffer = new byte[1024];
        while (!text.toString().endsWith("}")) {
            int read = in.read(buffer);
            if (read < 0) {
                break;
            }
            text.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
        }
        return text.toString();
    }

    @Test
    void theDocumentAndTheDocsPageAreServedFromTheJar() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory")) {
            var document = send(HttpRequest.newBuilder(jar.uri("/openapi.json")));
            assertEquals(200, document.statusCode());
            assertTrue(document.body().contains("\"title\":\"Plant Store\""), document.body());
            assertEquals(200, send(HttpRequest.newBuilder(jar.uri("/openapi.yaml"))).statusCode());
            assertEquals(200, send(HttpRequest.newBuilder(jar.uri("/docs"))).statusCode());
            var bundle = send(HttpRequest.newBuilder(jar.uri("/docs/swagger-ui-bundle.js")));
            assertEquals(200, bundle.statusCode());
            assertTrue(bundle.body().length() > 100_000, "Swagger UI's bundle is in the jar");
        }
    }

    @Test
    void docsOffServesNeitherTheDocumentNorThePage() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store", "memory",
                "--docs", "off")) {
            assertEquals(404, send(HttpRequest.newBuilder(jar.uri("/openapi.json"))).statusCode());
            assertEquals(404, send(HttpRequest.newBuilder(jar.uri("/docs"))).statusCode());
        }
    }

    @Test
    void helpPrintsUsageAndExitsZero() throws Exception {
        var result = RunningJar.runToCompletion(dir, "--help");
        assertEquals(0, result.exitCode());
        assertTrue(result.stdout().startsWith("Usage: java -jar plantstore.jar [options]"), result.stdout());
    }

    @Test
    void helpNamesTheTracingVariables() throws Exception {
        var result = RunningJar.runToCompletion(dir, "--help");
        assertTrue(result.stdout().contains("Traces: off unless the OpenTelemetry SDK's own variables")
                && result.stdout().contains("OTEL_EXPORTER_OTLP_ENDPOINT"), result.stdout());
    }

    @Test
    void unknownFlagPrintsOneLineAndExitsTwo() throws Exception {
        var result = RunningJar.runToCompletion(dir, "--frobnicate");
        assertEquals(2, result.exitCode());
        assertEquals("plantstore: unknown option --frobnicate (see --help)\n", result.stderr());
    }

    @Test
    void badValuePrintsOneLineAndExitsTwo() throws Exception {
        var result = RunningJar.runToCompletion(dir, "--port", "seventy");
        assertEquals(2, result.exitCode());
        assertEquals("plantstore: --port must be an integer from 0 to 65535, got 'seventy'\n", result.stderr());
    }

    @Test
    void fromATrustedProxyTheClientItNamesIsLimitedAndLoggedAndABadEntryIsRefused() throws Exception {
        String output;
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN, "PLANTSTORE_TRUSTED_PROXIES",
                "192.0.2.0/24, 127.0.0.1"), "--auth-failure-limit", "1")) {
            var refused = send(PlantRequests.delete(jar.uri("/plants/1"), "wrong-token")
                    .header("X-Forwarded-For", "198.51.100.7"));
            var limited = send(PlantRequests.delete(jar.uri("/plants/1"), TOKEN)
                    .header("X-Forwarded-For", "203.0.113.9, 198.51.100.7"));
            var another = send(PlantRequests.delete(jar.uri("/plants/1"), TOKEN)
                    .header("X-Forwarded-For", "198.51.100.8"));
            assertEquals(List.of(401, 429, 404), List.of(refused.statusCode(), limited.statusCode(),
                    another.statusCode()));
            output = jar.stopAndCollectOutput();
        }
        assertTrue(output.lines().anyMatch(line -> line.matches(
                ".* access - 198\\.51\\.100\\.8 DELETE /plants/1 404 \\d+\\.\\dms")), output);
        var bad = RunningJar.runToCompletion(dir, "--trusted-proxies", "10.0.0.0/8,proxy.example");
        assertEquals(new RunningJar.Completed(2, "", "plantstore: --trusted-proxies: a trusted proxy is an IP address "
                + "or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32, got 'proxy.example'\n"), bad);
    }

    @Test
    void aTokenShorterThanEightCharactersIsRefusedAtStartUpWithoutQuotingIt() throws Exception {
        var result = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_TOKENS", "long-enough-token,ci:x1y2z3"));
        assertEquals(new RunningJar.Completed(2, "",
                "plantstore: token ci has 6 characters; a token needs at least 8\n"), result);
    }

    @Test
    void aTokensFileOwnedByAnotherUserIsRefusedAtStartUp() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "file-token\n");
        Files.setPosixFilePermissions(tokens, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.setAttribute(tokens, "unix:uid", TokensTest.NOBODY);
        var result = RunningJar.runToCompletion(dir, "--tokens-file", tokens.toString());
        assertEquals(2, result.exitCode());
        assertEquals("plantstore: tokens file " + tokens + " is owned by user " + TokensTest.NOBODY + ", not by the "
                + "user this server runs as (0) or root; make it this server's with: chown 0 " + tokens + "\n",
                result.stderr());
    }

    @Test
    void aBadWebhookUrlIsQuotedWithoutItsCredentialsOrQueryFromTheFlagAndFromTheVariable() throws Exception {
        var secret = Map.of("PLANTSTORE_WEBHOOK_SECRET", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        String notHttp = "ftp://user:PASSWORD@hooks.example/x?token=QUERYSECRET#FRAGMENTSECRET";
        String unparsable = "http://user:PASSWORD@hooks example/x?token=QUERYSECRET";
        var fromFlag = RunningJar.runToCompletion(dir, secret, "--webhook-url", notHttp);
        var fromVariable = RunningJar.runToCompletion(dir, with(secret, "PLANTSTORE_WEBHOOK_URL", notHttp));
        var unparsableFromFlag = RunningJar.runToCompletion(dir, secret, "--webhook-url", unparsable);
        var unparsableFromVariable = RunningJar.runToCompletion(dir,
                with(secret, "PLANTSTORE_WEBHOOK_URL", unparsable));

        String refusal = "webhook URL ftp://hooks.example/x is not an absolute http or https URL with a host\n";
        assertEquals(new RunningJar.Completed(2, "", "plantstore: --webhook-url: " + refusal), fromFlag);
        assertEquals(new RunningJar.Completed(2, "", "plantstore: PLANTSTORE_WEBHOOK_URL: " + refusal), fromVariable);
        assertEquals(new RunningJar.Completed(2, "",
                "plantstore: --webhook-url: 'http://hooks example/x' is not a URL\n"), unparsableFromFlag);
        assertEquals(new RunningJar.Completed(2, "",
                "plantstore: PLANTSTORE_WEBHOOK_URL: 'http://hooks example/x' is not a URL\n"), unparsableFromVariable);
    }

    @Test
    void aTracingVariableTheSdkRefusesIsNamedOnOneLineWithoutItsValue() throws Exception {
        var result = RunningJar.runToCompletion(dir, Map.of("PLANTSTORE_TOKENS", TOKEN,
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer SECRET,broken"));
        assertEquals(2, result.exitCode());
        assertEquals(1, result.stderr().lines().count(), result.stderr());
        assertTrue(result.stderr().startsWith("plantstore: tracing: OTEL_EXPORTER_OTLP_HEADERS "), result.stderr());
        assertFalse((result.stdout() + result.stderr()).contains("SECRET"), result.stdout() + result.stderr());
    }

    @Test
    void aRefusedOptionLeavesNoStoreBehind() throws Exception {
        Path workDir = Files.createDirectory(dir.resolve("refused"));
        var result = RunningJar.runToCompletion(workDir, Map.of("PLANTSTORE_TOKENS", TOKEN), "--store",
                "sqlite:plants.db", "--cors-origins", "docs.example.com");
        assertEquals(new RunningJar.Completed(2, "", "plantstore: --cors-origins: a CORS origin must look like "
                + "https://example.com[:port] or be *\n"), result);
        try (var left = Files.list(workDir)) {
            assertEquals(List.of(), left.toList());
        }
    }

    private static Map<String, String> with(Map<String, String> env, String name, String value) {
        var more = new java.util.HashMap<>(env);
        more.put(name, value);
        return more;
    }

    @Test
    void portInUsePrintsOneLineAndExitsOne() throws Exception {
        try (var jar = RunningJar.start(dir, Map.of("PLANTSTORE_TOKENS", TOKEN))) {
            var result = RunningJar.runToCompletion(dir, "--host", "127.0.0.1", "--port", Integer.toString(jar.port()),
                    "--store", "memory");
            assertEquals(1, result.exitCode());
            assertEquals("plantstore: cannot listen on 127.0.0.1:" + jar.port() + ": Address already in use\n",
                    result.stderr());
            assertEquals("", result.stdout());
        }
    }

    @Test
    void unknownHostPrintsOneLineAndExitsOne() throws Exception {
        var result = RunningJar.runToCompletion(dir, "--host", "no-such-host.invalid", "--port", "0");
        assertEquals(1, result.exitCode());
        assertEquals("plantstore: cannot listen on no-such-host.invalid:0: unknown host\n", result.stderr());
    }
}
