package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.core.PlantStores;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Behind a reverse proxy, a client is the one the proxy names, only when the proxy is trusted. The server trusts
 * 127.0.0.1; the tests' untrusted peer is 127.0.0.2, the same machine by another loopback address.
 */
class TrustedProxiesTest {

    private static final String PROXY = "127.0.0.1";
    private static final String UNTRUSTED = "127.0.0.2";
    private static final String BAD_TOKEN = "not-the-token";
    /** Two refused tokens a minute, then 429. */
    private static final int LIMIT = 2;

    private static PlantStoreServer start() {
        return PlantStoreServer.start(TestApi.api(PlantStores.inMemory()).withAuthFailureLimit(LIMIT)
                .withTrustedProxies(List.of(PROXY + "/32")), PROXY, 0);
    }

    /** The status of a delete (404 once admitted: the plant is absent) sent from {@code from} with {@code headers}. */
    private static int delete(PlantStoreServer server, String from, String token, String... headers) {
        var request = new StringBuilder("DELETE /plants/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ")
                .append(token).append("\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        String response = RawHttp.exchange(from, server.port(), request.append("Connection: close\r\n\r\n").toString());
        return Integer.parseInt(response.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
    }

    @Test
    void clientsBehindATrustedProxyAreLimitedEachOnItsOwn() {
        try (var server = start()) {
            for (int i = 0; i < LIMIT; i++) {
                assertEquals(401, delete(server, PROXY, BAD_TOKEN, "X-Forwarded-For: 198.51.100.7"));
            }
            assertEquals(429, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 198.51.100.7"));
            assertEquals(404, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 198.51.100.8"),
                    "another client behind the same proxy is not locked out");
            assertEquals(404, delete(server, PROXY, TestApi.TOKEN), "nor is the proxy itself");
        }
    }

    @Test
    void theClientIsTheRightMostAddressThatIsNotATrustedProxy() {
        try (var server = start()) {
            assertEquals(401, delete(server, PROXY, BAD_TOKEN, "X-Forwarded-For: 203.0.113.1, 198.51.100.7"));
            assertEquals(401, delete(server, PROXY, BAD_TOKEN,
                    "X-Forwarded-For: 203.0.113.2, 198.51.100.7, 127.0.0.1"));
            assertEquals(429, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 203.0.113.3, 198.51.100.7"),
                    "what a client writes left of the address its proxy appends is never read");
            assertEquals(429, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 203.0.113.4",
                    "X-Forwarded-For: 198.51.100.7"), "a header on two lines is one list");
            assertEquals(404, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 198.51.100.7, 203.0.113.3"));
        }
    }

    @Test
    void anUntrustedPeersForwardingHeadersAreIgnored() {
        try (var server = start()) {
            assertEquals(401, delete(server, UNTRUSTED, BAD_TOKEN, "X-Forwarded-For: 198.51.100.1"));
            assertEquals(401, delete(server, UNTRUSTED, BAD_TOKEN, "Forwarded: for=198.51.100.2"));
            assertEquals(429, delete(server, UNTRUSTED, TestApi.TOKEN, "X-Forwarded-For: 198.51.100.3"),
                    "an untrusted peer cannot name a fresh client to escape its limit");
            assertEquals(404, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 198.51.100.1"),
                    "nor can it lock out the client it named");
        }
    }

    @Test
    void forwardedIsReadWithoutXForwardedForAndAnIpv6ClientIsLimitedByItsSlash64() {
        try (var server = start()) {
            assertEquals(401, delete(server, PROXY, BAD_TOKEN,
                    "Forwarded: for=\"[2001:db8:1:2::a]:4711\";proto=https;by=127.0.0.1"));
            assertEquals(401, delete(server, PROXY, BAD_TOKEN, "Forwarded: For=\"[2001:db8:1:2:ffff::b]\""));
            assertEquals(429, delete(server, PROXY, TestApi.TOKEN,
                    "Forwarded: for=192.0.2.60, for=\"[2001:db8:1:2::c]\""), "the same /64, the same client");
            assertEquals(404, delete(server, PROXY, TestApi.TOKEN, "Forwarded: for=\"[2001:db8:1:3::a]\""),
                    "the next /64 is another client");
            assertEquals(404, delete(server, PROXY, TestApi.TOKEN, "X-Forwarded-For: 198.51.100.9",
                    "Forwarded: for=\"[2001:db8:1:2::d]\""), "X-Forwarded-For comes first");
        }
    }

    @Test
    void theAccessLineShowsTheClientTheLimiterCountsAgainst() {
        var fromProxy = Pattern.compile("(?m)dev\\.plantstore\\.access - 198\\.51\\.100\\.7 GET /health 200 ");
        var fromUntrusted = Pattern.compile("(?m)dev\\.plantstore\\.access - 127\\.0\\.0\\.2 GET /health 200 ");
        String log = LogCapture.awaiting(List.of(fromProxy, fromUntrusted), () -> {
            try (var server = start()) {
                RawHttp.exchange(PROXY, server.port(), "GET /health HTTP/1.1\r\nHost: x\r\n"
                        + "X-Forwarded-For: 203.0.113.1, 198.51.100.7\r\nConnection: close\r\n\r\n");
                RawHttp.exchange(UNTRUSTED, server.port(), "GET /health HTTP/1.1\r\nHost: x\r\n"
                        + "X-Forwarded-For: 198.51.100.8\r\nConnection: close\r\n\r\n");
            }
        });
        assertTrue(fromProxy.matcher(log).find(), log);
        assertTrue(fromUntrusted.matcher(log).find(), log);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"proxy.example", "10.0.0.0/33", "::1/129", "10.0.0", "10.0.0.256", "10.0.0.0/", "",
            "[::1]", "10.0.0.1:80"})
    void aTrustedProxyIsAnAddressOrACidrBlock(String given) {
        var api = TestApi.api(PlantStores.inMemory());
        var refused = assertThrows(IllegalArgumentException.class, () -> api.withTrustedProxies(List.of(given)));
        assertEquals("a trusted proxy is an IP address or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32, got '"
                + given + "'", refused.getMessage());
        assertEquals(refused.getMessage(), assertThrows(IllegalArgumentException.class,
                () -> PlantStoreApi.requireTrustedProxy(given)).getMessage());
    }
}
