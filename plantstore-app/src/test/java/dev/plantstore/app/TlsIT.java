package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar serving TLS from PEM files: HTTP/2 and HTTP/1.1 by ALPN, nothing in the clear, TLS 1.1 refused, a bad pair
 * refused at start and at renewal, a pair renewed as Kubernetes renews a mounted secret while creates run, client
 * certificates of one CA only, and the management port over TLS.
 */
class TlsIT {

    private static final Map<String, String> TOKEN = Map.of("PLANTSTORE_TOKENS", "tls-token");
    private static final String PLANT = "{\"id\":%d,\"name\":\"Monstera\",\"tag\":\"aroid\"}";

    @TempDir
    Path dir;

    private TestPki pki;
    private TestPki.Pair pair;

    @BeforeEach
    void makePair() throws Exception {
        pki = TestPki.ca(dir, "test-ca");
        pair = pki.issue("first", 1001, 30);
    }

    private RunningJar startWith(TestPki.Pair served, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--store", "memory", "--tls-cert-file", served.cert().toString(),
                "--tls-key-file", served.key().toString()));
        args.addAll(List.of(more));
        return RunningJar.start(dir, TOKEN, args.toArray(String[]::new));
    }

    private RunningJar.Completed curl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--cacert", pki.caCertificate().toString(),
                "-H", "Authorization: Bearer tls-token"));
        command.addAll(List.of(args));
        return TestPki.run(dir, command.toArray(String[]::new));
    }

    @Test
    void curlCreatesAndDeletesOverHttp2AndOverHttp11() throws Exception {
        try (RunningJar jar = startWith(pair)) {
            assertTrue(jar.outputSoFar().contains("certificate CN=first, serial 3e9, expires "), jar.outputSoFar());
            assertFalse(jar.outputSoFar().contains("within 14 days"), jar.outputSoFar());
            String plants = "https://localhost:" + jar.port() + "/plants";
            int id = 1;
            for (String version : List.of("--http2", "--http1.1")) {
                String shown = version.equals("--http2") ? "2" : "1.1";
                RunningJar.Completed created = curl(version, "-w", " %{http_code} %{http_version}", "-H",
                        "Content-Type: application/json", "-d", PLANT.formatted(id), plants);
                assertEquals("{\"name\":\"Monstera\",\"tag\":\"aroid\"} 200 " + shown, created.stdout(), version);
                RunningJar.Completed deleted = curl(version, "-w", "%{http_code} %{http_version}", "-X", "DELETE",
                        plants + "/" + id);
                assertEquals("204 " + shown, deleted.stdout(), version);
                id++;
            }
        }
    }

    /** The lines printed with a generated token, run by a shell as printed, create and delete over TLS. */
    @Test
    void theTryItLinesOfAGeneratedTokenWorkOverTls() throws Exception {
        List<String> args = List.of("--store", "memory", "--tls-cert-file", pair.cert().toString(), "--tls-key-file",
                pair.key().toString());
        try (RunningJar jar = RunningJar.start(dir, Map.of(), args.toArray(String[]::new))) {
            String output = jar.outputSoFar();
            String tryIt = output.substring(output.indexOf("Try it:\n") + "Try it:\n".length(),
                    output.indexOf("plantstore listening on"));
            assertTrue(tryIt.contains("--cacert " + pair.cert()), output);
            RunningJar.Completed ran = TestPki.run(dir, "bash", "-c", "set -e\n" + tryIt);
            assertEquals(0, ran.exitCode(), ran.stdout());
            assertTrue(ran.stdout().contains("HTTP/2 200"), ran.stdout());
            assertTrue(ran.stdout().contains("HTTP/2 204"), ran.stdout());
        }
    }

    /** Two of the hostile-client rules on HTTP/2 streams: the body limit, and the body that arrives too slowly. */
    @Test
    void theBodyLimitAndTheSlowBodyRuleHoldOverHttp2() throws Exception {
        Path big = Files.writeString(dir.resolve("big.json"),
                "{\"id\":1,\"name\":\"" + "a".repeat(70_000) + "\",\"tag\":\"x\"}");
        Path slow = Files.writeString(dir.resolve("slow.json"),
                "{\"id\":2,\"name\":\"" + "a".repeat(2_000) + "\",\"tag\":\"x\"}");
        try (RunningJar jar = startWith(pair)) {
            String plants = "https://localhost:" + jar.port() + "/plants";
            RunningJar.Completed tooLarge = curl("--http2", "-w", " %{http_code} %{http_version}", "-H",
                    "Content-Type: application/json", "--data-binary", "@" + big, plants);
            assertTrue(tooLarge.stdout().endsWith(" 413 2"), tooLarge.stdout());
            // 100 bytes a second stays below the default minimum of 256 after the first 5 s.
            RunningJar.Completed tooSlow = curl("--http2", "--limit-rate", "100", "-w", " %{http_code} %{http_version}",
                    "-H", "Content-Type: application/json", "--data-binary", "@" + slow, plants);
            assertTrue(tooSlow.stdout().endsWith(" 408 2"), tooSlow.stdout());
        }
    }

    @Test
    void refusedTokensAreLimitedOverHttp2AsOverHttp11() throws Exception {
        try (RunningJar jar = startWith(pair, "--auth-failure-limit", "1")) {
            HttpClient client = HttpClient.newBuilder().sslContext(pki.clientContext())
                    .version(HttpClient.Version.HTTP_2).build();
            List<Integer> statuses = new ArrayList<>();
            for (int refusal = 0; refusal < 2; refusal++) {
                HttpResponse<String> refused = client.send(HttpRequest.newBuilder(jar.uri("/plants/1"))
                        .header("Authorization", "Bearer not-the-tls-token").DELETE().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(HttpClient.Version.HTTP_2, refused.version());
                statuses.add(refused.statusCode());
            }
            assertEquals(List.of(401, 429), statuses, "a second refused token within the window is limited");
        }
    }

    /** Jetty ends an idle HTTP/2 connection with GOAWAY on a stop: the stop does not wait for the client. */
    @Test
    void aStopWithAnIdleHttp2ConnectionOpenEndsAtOnce() throws Exception {
        try (RunningJar jar = startWith(pair)) {
            HttpClient client = HttpClient.newBuilder().sslContext(pki.clientContext())
                    .version(HttpClient.Version.HTTP_2).build();
            HttpResponse<String> ready = client.send(HttpRequest.newBuilder(jar.uri("/health/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, ready.version());
            String output = jar.stopAndCollectOutput();
            // A stop that waited for the client would run into the server's stop time-out and exit 1 without this
            // line: what a client of the stop sees, with no bound on this machine's pace.
            assertEquals(0, jar.process().exitValue(), output);
            assertTrue(output.contains("plantstore stopped"), output);
        }
    }

    @Test
    void aCertificateWithinFourteenDaysOfItsExpiryIsAWarning() throws Exception {
        try (RunningJar jar = startWith(pki.issue("short", 9, 5))) {
            assertTrue(jar.outputSoFar().lines().anyMatch(line -> line.contains(" WARN ")
                    && line.contains("the TLS certificate CN=short expires in 4 days, on ")
                    && line.endsWith(": renew it")), jar.outputSoFar());
        }
    }

    /**
     * A certificate that has expired is refused at start in one line, and at a renewal in one line, the pair in use
     * kept: it would have replaced a valid one, and every client would have refused it.
     */
    @Test
    void anExpiredCertificateIsRefusedAtStartAndAtRenewal() throws Exception {
        TestPki.Pair expired = pki.issueValid("expired", 77, "20200101000000Z", "20200201000000Z");
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, TOKEN, "--store", "memory", "--port", "0",
                "--tls-cert-file", expired.cert().toString(), "--tls-key-file", expired.key().toString());
        assertEquals(2, refused.exitCode(), refused.stdout() + refused.stderr());
        assertEquals(List.of("plantstore: --tls-cert-file " + expired.cert() + " (CN=expired) expired on "
                + "2020-02-01T00:00:00Z: renew it"), refused.stderr().lines().toList());

        Path secret = dir.resolve("secret");
        try (RunningJar jar = startWith(mounted(secret, pair))) {
            mountVersion(secret, "..v2", expired);
            assertTrue(Poll.until(Duration.ofSeconds(15), Duration.ofMillis(100),
                    () -> refusals(jar.outputSoFar()) == 1), jar.outputSoFar());
            assertTrue(jar.outputSoFar().contains("(CN=expired) expired on 2020-02-01T00:00:00Z"), jar.outputSoFar());
            assertEquals(BigInteger.valueOf(1001), pki.servedSerial(jar.port()), jar.outputSoFar());
        }
    }

    @Test
    void plainHttpToTheTlsPortIsNeverAnsweredInTheClear() throws Exception {
        try (RunningJar jar = startWith(pair); var socket = new Socket("127.0.0.1", jar.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /health/ready HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertFalse(answer.contains("HTTP/") || answer.contains("UP"), "no answer in the clear: " + answer);
        }
    }

    @Test
    void tls11IsRefusedAndTls12And13Accepted() throws Exception {
        try (RunningJar jar = startWith(pair)) {
            String connect = "127.0.0.1:" + jar.port();
            // SECLEVEL=0 lets this openssl offer TLS 1.1 at all, so that the refusal seen is the server's.
            RunningJar.Completed old = TestPki.run(dir, "openssl", "s_client", "-tls1_1", "-cipher",
                    "DEFAULT@SECLEVEL=0", "-connect", connect);
            assertNotEquals(0, old.exitCode(), old.stdout());
            assertTrue(old.stdout().contains("alert protocol version"), old.stdout());
            for (String version : List.of("-tls1_2", "-tls1_3")) {
                RunningJar.Completed ok = TestPki.run(dir, "openssl", "s_client", version, "-CAfile",
                        pki.caCertificate().toString(), "-connect", connect);
                assertTrue(ok.stdout().contains("Verify return code: 0 (ok)"), version + "\n" + ok.stdout());
            }
        }
    }

    /** TLS 1.2 offers only suites with ECDHE and an AEAD cipher: a client asking for CBC ones alone is refused. */
    @Test
    void tls12OffersOnlyAeadSuitesWithEcdhe() throws Exception {
        try (RunningJar jar = startWith(pair)) {
            String connect = "127.0.0.1:" + jar.port();
            for (String cbc : List.of("ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384")) {
                RunningJar.Completed refused = TestPki.run(dir, "openssl", "s_client", "-tls1_2", "-cipher", cbc,
                        "-connect", connect);
                assertNotEquals(0, refused.exitCode(), cbc + "\n" + refused.stdout());
                assertTrue(refused.stdout().contains("handshake failure"), cbc + "\n" + refused.stdout());
            }
            for (String aead : List.of("ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305")) {
                RunningJar.Completed ok = TestPki.run(dir, "openssl", "s_client", "-tls1_2", "-cipher", aead,
                        "-CAfile", pki.caCertificate().toString(), "-connect", connect);
                assertTrue(ok.stdout().contains("Cipher is " + aead), aead + "\n" + ok.stdout());
            }
        }
    }

    @Test
    void aPairThatDoesNotMatchOrAKeyCutShortIsRefusedAtStartInOneLine() throws Exception {
        TestPki.Pair other = pki.issue("other", 1002, 30);
        Path truncated = dir.resolve("truncated.key");
        String key = Files.readString(pair.key());
        Files.writeString(truncated, key.substring(0, key.length() / 2));
        Files.setPosixFilePermissions(truncated, PosixFilePermissions.fromString("rw-------"));
        for (Path wrongKey : List.of(other.key(), truncated)) {
            RunningJar.Completed refused = RunningJar.runToCompletion(dir, TOKEN, "--store", "memory", "--port", "0",
                    "--tls-cert-file", pair.cert().toString(), "--tls-key-file", wrongKey.toString());
            assertEquals(2, refused.exitCode(), refused.stdout() + refused.stderr());
            List<String> lines = refused.stderr().lines().toList();
            assertEquals(1, lines.size(), refused.stderr());
            assertTrue(lines.get(0).startsWith("plantstore: --tls-key-file " + wrongKey), lines.get(0));
            assertFalse(refused.stdout().contains("listening"), refused.stdout());
        }
    }

    /**
     * As the kubelet updates a mounted secret: the files are links through {@code ..data} to a directory of the
     * version, and a new version is a new directory, {@code ..data} renamed over to point at it.
     */
    @Test
    void aPairRenewedByARenameReachesNewConnectionsWhileCreatesRunWithoutAFailure() throws Exception {
        Path secret = dir.resolve("secret");
        TestPki.Pair mounted = mounted(secret, pair);
        TestPki.Pair renewed = pki.issue("renewed", 2002, 30);
        try (RunningJar jar = startWith(mounted)) {
            assertEquals(BigInteger.valueOf(1001), pki.servedSerial(jar.port()));
            var load = new CreateLoad(pki.clientContext(), jar.uri("/plants"), 4);
            load.start();
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20), () -> load.succeeded() > 50),
                    "creates run: " + load.failures());
            mountVersion(secret, "..v2", renewed);
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(100),
                    () -> pki.servedSerial(jar.port()).equals(BigInteger.valueOf(2002))),
                    "the renewed certificate is served:\n" + jar.outputSoFar());
            long succeededAtSwap = load.succeeded();
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20),
                    () -> load.succeeded() > succeededAtSwap + 50), "creates go on");
            load.stop();
            assertEquals(List.of(), load.failures(), "no request failed across the renewal");

            // A pair that does not match, then a key cut short: each refused in one line, the renewed pair kept.
            TestPki.Pair mismatched = new TestPki.Pair(pki.issue("third", 3003, 30).cert(), pair.key());
            Path cut = dir.resolve("cut.key");
            String key = Files.readString(renewed.key());
            Files.writeString(cut, key.substring(0, key.length() - 40));
            Files.setPosixFilePermissions(cut, PosixFilePermissions.fromString("rw-------"));
            int version = 3;
            for (TestPki.Pair bad : List.of(mismatched, new TestPki.Pair(renewed.cert(), cut))) {
                int refusalsBefore = refusals(jar.outputSoFar());
                mountVersion(secret, "..v" + version++, bad);
                assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(100),
                        () -> refusals(jar.outputSoFar()) == refusalsBefore + 1), jar.outputSoFar());
                assertEquals(BigInteger.valueOf(2002), pki.servedSerial(jar.port()), jar.outputSoFar());
            }
        }
    }

    /**
     * What no renewal writes, put in the pair's place: a FIFO as the key (opening it would wait for a writer for ever),
     * the certificate a link to /dev/zero (which never ends), a key every user may read. Each is refused in one line
     * that says why, the pair in use still served, and a good pair after them is taken: the watch never blocked.
     */
    @Test
    void aFifoADeviceAndAKeyOthersMayReadAreRefusedAtRenewalAndAGoodPairAfterThemIsTaken() throws Exception {
        Path secret = dir.resolve("secret");
        try (RunningJar jar = startWith(mounted(secret, pair))) {
            Map<String, String> reasons = Map.of("..v2", "tls.key is a FIFO, not a regular file",
                    "..v3", "its target /dev/zero is a character device, not a regular file",
                    "..v4", "tls.key is open to other users (rw-r--r--); make it private with: chmod 600 ");
            for (String version : List.of("..v2", "..v3", "..v4")) {
                Path versionDir = Files.createDirectories(secret.resolve(version));
                Path cert = versionDir.resolve("tls.crt");
                Path key = versionDir.resolve("tls.key");
                switch (version) {
                    case "..v2" -> {
                        Files.copy(pair.cert(), cert);
                        assertEquals(0, TestPki.run(dir, "mkfifo", key.toString()).exitCode());
                    }
                    case "..v3" -> {
                        Files.createSymbolicLink(cert, Path.of("/dev/zero"));
                        Files.copy(pair.key(), key);
                    }
                    default -> {
                        Files.copy(pair.cert(), cert);
                        Files.copy(pair.key(), key);
                        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
                    }
                }
                int refusalsBefore = refusals(jar.outputSoFar());
                pointDataAt(secret, version);
                assertTrue(Poll.until(Duration.ofSeconds(15), Duration.ofMillis(100),
                        () -> refusals(jar.outputSoFar()) == refusalsBefore + 1), jar.outputSoFar());
                String refusal = jar.outputSoFar().lines()
                        .filter(line -> line.contains("the TLS files changed but are refused"))
                        .reduce((first, second) -> second).orElseThrow();
                assertTrue(refusal.contains(reasons.get(version)), version + ": " + refusal);
                assertEquals(BigInteger.valueOf(1001), pki.servedSerial(jar.port()), jar.outputSoFar());
            }
            mountVersion(secret, "..v5", pki.issue("renewed", 2002, 30));
            assertTrue(Poll.until(Duration.ofSeconds(15), Duration.ofMillis(100),
                    () -> pki.servedSerial(jar.port()).equals(BigInteger.valueOf(2002))),
                    "the renewed certificate after the refusals:\n" + jar.outputSoFar());
        }
    }

    @Test
    void aKeyOthersMayReadIsRefusedAtStartInOneLine() throws Exception {
        Files.setPosixFilePermissions(pair.key(), PosixFilePermissions.fromString("rw-r--r--"));
        RunningJar.Completed refused = RunningJar.runToCompletion(dir, TOKEN, "--store", "memory", "--port", "0",
                "--tls-cert-file", pair.cert().toString(), "--tls-key-file", pair.key().toString());
        assertEquals(2, refused.exitCode(), refused.stdout() + refused.stderr());
        assertEquals(List.of("plantstore: --tls-key-file " + pair.key() + " is open to other users (rw-r--r--); make "
                + "it private with: chmod 600 " + pair.key()), refused.stderr().lines().toList());
    }

    @Test
    void aClientCertificateFromAnotherCaNeverReachesTheApi() throws Exception {
        Path foreignDir = Files.createDirectories(dir.resolve("foreign"));
        TestPki foreign = TestPki.ca(foreignDir, "foreign-ca");
        TestPki.Pair stranger = foreign.issue("stranger", 7, 30);
        TestPki.Pair client = pki.issue("client", 8, 30);
        try (RunningJar jar = startWith(pair, "--tls-client-ca-file", pki.caCertificate().toString())) {
            String ready = "https://localhost:" + jar.port() + "/health/ready";
            RunningJar.Completed trusted = curl("-w", " %{http_code}", "--cert", client.cert().toString(), "--key",
                    client.key().toString(), ready);
            assertEquals("{\"status\":\"UP\"} 200", trusted.stdout(), trusted.stdout());
            RunningJar.Completed refused = curl("-w", " %{http_code}", "--cert", stranger.cert().toString(), "--key",
                    stranger.key().toString(), ready);
            assertNotEquals(0, refused.exitCode(), refused.stdout());
            RunningJar.Completed without = curl("-w", " %{http_code}", ready);
            assertNotEquals(0, without.exitCode(), without.stdout());
            // The access log is written in order, after each exchange: once the second trusted request's line is
            // there, a line for either refused one would be before it.
            curl("--cert", client.cert().toString(), "--key", client.key().toString(), ready);
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20),
                    () -> accessLines(jar.outputSoFar()) >= 2), jar.outputSoFar());
            assertEquals(2, accessLines(jar.outputSoFar()), "only the trusted client's requests reached a handler:\n"
                    + jar.outputSoFar());
        }
    }

    /**
     * A handshake refused for the client's certificate is a WARN line naming the peer and the reason, once a minute
     * per reason, and every one is counted: two clients with none, one with a certificate of another CA, one with an
     * expired certificate of the trusted CA.
     */
    @Test
    void aRefusedClientCertificateIsOneLineAMinutePerReasonAndEachIsCounted() throws Exception {
        Path foreignDir = Files.createDirectories(dir.resolve("foreign"));
        TestPki.Pair stranger = TestPki.ca(foreignDir, "foreign-ca").issue("stranger", 7, 30);
        TestPki.Pair expired = pki.issueValid("expired-client", 9, "20200101000000Z", "20200201000000Z");
        try (RunningJar jar = startWith(pair, "--tls-client-ca-file", pki.caCertificate().toString(),
                "--management-port", "0")) {
            String ready = "https://localhost:" + jar.port() + "/health/ready";
            for (RunningJar.Completed refused : List.of(curl(ready), curl(ready),
                    curl("--cert", stranger.cert().toString(), "--key", stranger.key().toString(), ready),
                    curl("--cert", expired.cert().toString(), "--key", expired.key().toString(), ready))) {
                assertNotEquals(0, refused.exitCode(), refused.stdout());
            }
            String metricsUrl = "https://localhost:" + jar.managementUri("/metrics").getPort() + "/metrics";
            String counted = "plantstore_tls_client_certificates_refused_total";
            List<String> expected = List.of(counted + "{reason=\"expired\"} 1.0",
                    counted + "{reason=\"no_certificate\"} 2.0", counted + "{reason=\"untrusted\"} 1.0");
            // Each refusal is counted, then written: once all are counted, the lines are polled for, then not more.
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(50), () -> curl(metricsUrl).stdout().lines()
                    .filter(line -> line.startsWith(counted)).sorted().toList().equals(expected)),
                    curl(metricsUrl).stdout());
            assertTrue(Poll.until(Poll.PATIENCE, Duration.ofMillis(20), () -> refusedHandshakes(jar).size() >= 3),
                    jar.outputSoFar());
            List<String> lines = refusedHandshakes(jar);
            assertEquals(3, lines.size(), jar.outputSoFar());
            String loopback = "TLS handshake from (127\\.0\\.0\\.1|0:0:0:0:0:0:0:1) refused: ";
            for (String reason : List.of("it presented no client certificate",
                    "its client certificate is not signed by a trusted CA or not valid",
                    "its client certificate has expired")) {
                assertEquals(1, lines.stream().filter(line -> line.contains(" WARN ")
                        && Pattern.compile(loopback + Pattern.quote(reason) + "$").matcher(line).find()).count(),
                        reason + ":\n" + jar.outputSoFar());
            }
        }
    }

    @Test
    void theManagementPortsProbesAndMetricsAnswerOverTls() throws Exception {
        try (RunningJar jar = startWith(pair, "--management-port", "0")) {
            URI ready = jar.managementUri("/health/ready");
            assertEquals("https", ready.getScheme());
            RunningJar.Completed probe = curl("-w", " %{http_code}", "https://localhost:" + ready.getPort()
                    + "/health/ready");
            assertEquals("{\"status\":\"UP\"} 200", probe.stdout());
            RunningJar.Completed metrics = curl("https://localhost:" + ready.getPort() + "/metrics");
            assertTrue(metrics.stdout().lines().anyMatch(line ->
                    line.startsWith("plantstore_tls_certificate_expiry_seconds ")), metrics.stdout());
        }
    }

    /**
     * A kubelet probing {@code https://POD_IP:PORT} and a Prometheus scraping by address send the address as Host,
     * which a certificate for a DNS name does not hold: both ports answer them, over HTTP/1.1 and HTTP/2, as plain
     * HTTP does.
     */
    @Test
    void probesByAddressAreAnsweredWhenTheCertificateNamesOnlyADnsName() throws Exception {
        TestPki.Pair named = pki.issue("api", 2001, 30, "DNS:api.example.com");
        try (RunningJar jar = startWith(named, "--management-port", "0")) {
            String api = "https://127.0.0.1:" + jar.port();
            String management = "https://127.0.0.1:" + jar.managementUri("/").getPort();
            for (String version : List.of("--http2", "--http1.1")) {
                for (String probe : List.of(api + "/health/live", management + "/health/live",
                        management + "/metrics")) {
                    // -k: as the kubelet, which does not check the certificate.
                    RunningJar.Completed answer = TestPki.run(dir, "curl", "-sS", "-k", version, "-o", "/dev/null",
                            "-w", "%{http_code}", probe);
                    assertEquals("200", answer.stdout(), version + " " + probe);
                }
            }
        }
    }

    private static List<String> refusedHandshakes(RunningJar jar) {
        return jar.outputSoFar().lines().filter(line -> line.contains("TLS handshake from")).toList();
    }

    private static long accessLines(String output) {
        return output.lines().filter(line -> line.contains(" access - ")).count();
    }

    private static int refusals(String output) {
        return (int) output.lines().filter(line -> line.contains("the TLS files changed but are refused")).count();
    }

    /** Writes {@code pair} into {@code secret/version} and points {@code ..data} at it by one rename. */
    private static void mountVersion(Path secret, String version, TestPki.Pair pair) throws IOException {
        Path versionDir = Files.createDirectories(secret.resolve(version));
        Files.copy(pair.cert(), versionDir.resolve("tls.crt"));
        Files.copy(pair.key(), versionDir.resolve("tls.key"));
        pointDataAt(secret, version);
    }

    private static void pointDataAt(Path secret, String version) throws IOException {
        Path next = Files.createSymbolicLink(secret.resolve("..data_tmp"), Path.of(version));
        Files.move(next, secret.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    /** A secret volume as the kubelet lays it out, with {@code pair} in it, for the jar to be started on. */
    private static TestPki.Pair mounted(Path secret, TestPki.Pair pair) throws IOException {
        Files.createDirectories(secret);
        mountVersion(secret, "..v1", pair);
        Files.createSymbolicLink(secret.resolve("tls.crt"), Path.of("..data/tls.crt"));
        Files.createSymbolicLink(secret.resolve("tls.key"), Path.of("..data/tls.key"));
        return new TestPki.Pair(secret.resolve("tls.crt"), secret.resolve("tls.key"));
    }

    /** Creates sent by a few HTTP/2 clients over keep-alive connections, each failure kept. */
    private static final class CreateLoad {

        private static final AtomicLong IDS = new AtomicLong(1_000_000);

        private final List<Thread> threads = new ArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger succeeded = new AtomicInteger();
        private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

        CreateLoad(SSLContext tls, URI plants, int clients) {
            for (int i = 0; i < clients; i++) {
                HttpClient client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_2)
                        .connectTimeout(Duration.ofSeconds(10)).build();
                threads.add(new Thread(() -> run(client, plants), "create-load-" + i));
            }
        }

        void start() {
            threads.forEach(Thread::start);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(30_000);
            }
        }

        int succeeded() {
            return succeeded.get();
        }

        List<String> failures() {
            return List.copyOf(failures);
        }

        private void run(HttpClient client, URI plants) {
            while (running.get()) {
                HttpRequest create = HttpRequest.newBuilder(plants).timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer tls-token").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(PLANT.formatted(IDS.incrementAndGet()))).build();
                try {
                    HttpResponse<String> response = client.send(create, HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() == 200 && response.version() == HttpClient.Version.HTTP_2) {
                        succeeded.incrementAndGet();
                    } else {
                        failures.add(response.version() + " " + response.statusCode() + " " + response.body());
                    }
                } catch (IOException e) {
                    failures.add(e.toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
