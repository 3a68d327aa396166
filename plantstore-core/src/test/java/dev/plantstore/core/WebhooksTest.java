package dev.plantstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of the public webhook settings: secrets, receivers, retry period, and what {@code toString} hides. */
class WebhooksTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final List<URI> RECEIVER = List.of(URI.create("https://hooks.example/plants"));

    @Test
    void aSecretMustBeWhsecBase64OfTwentyFourToSixtyFourBytes() {
        var noPrefix = assertThrows(IllegalArgumentException.class,
                () -> Webhooks.to(RECEIVER, "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertFalse(noPrefix.getMessage().contains("MfKQ9r8G"), "an error never quotes a secret");
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(RECEIVER, "whsec_not*base64"));
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(RECEIVER, "whsec_c2hvcnQ="));
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(RECEIVER, " "));
    }

    @Test
    void receiversMustBeAbsoluteHttpOrHttpsUrlsEachGivenOnce() {
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(), SECRET));
        for (String bad : List.of("ftp://hooks.example/x", "/relative", "http:///nohost", "https://h.example/x#frag",
                "http://h.example:99999/x", "http://h.example:0/x")) {
            assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(URI.create(bad)), SECRET), bad);
            assertThrows(IllegalArgumentException.class, () -> Webhooks.requireReceiver(URI.create(bad)), bad);
        }
        URI one = URI.create("http://hooks.example/a");
        assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(one, one), SECRET));
        assertEquals(List.of(one), Webhooks.to(List.of(one), SECRET).receivers());
    }

    @Test
    void aPortOutsideOneTo65535IsRefusedInOneLine() {
        var refused = assertThrows(IllegalArgumentException.class,
                () -> Webhooks.requireReceiver(URI.create("http://user:pw@h.example:99999/x?token=t0k")));
        assertEquals("webhook URL http://h.example:99999/x has a port outside 1 to 65535", refused.getMessage());
    }

    @Test
    void twoReceiversThatDifferOnlyInCredentialsOrQueryAreOneReceiver() {
        var refused = assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(
                URI.create("https://a:pw@hooks.example/x?token=1"), URI.create("https://hooks.example/x?token=2")),
                SECRET));
        assertEquals("webhook URL https://hooks.example/x is given twice, differing only in user information, query "
                + "or ceiling", refused.getMessage());
        var twoCeilings = assertThrows(IllegalArgumentException.class, () -> Webhooks.to(List.of(
                URI.create("https://hooks.example/x#rate=5"), URI.create("https://hooks.example/x#rate=50")), SECRET));
        assertEquals(refused.getMessage(), twoCeilings.getMessage());
    }

    @Test
    void aReceiversOnlyFragmentIsItsCeilingOfOneTo10000RequestsASecond() {
        assertEquals(URI.create("https://hooks.example/x#rate=10000"),
                Webhooks.requireReceiver(URI.create("https://hooks.example/x#rate=10000")));
        assertEquals("webhook URL https://hooks.example/x has a fragment other than #rate=N, its ceiling of N requests "
                + "a second (1 to 10000)", assertThrows(IllegalArgumentException.class,
                () -> Webhooks.requireReceiver(URI.create("https://hooks.example/x#rate=0"))).getMessage());
    }

    @Test
    void toStringShowsNeitherSecretNorCredentialsOfAUrl() {
        var webhooks = Webhooks.to(List.of(URI.create("https://user:pw@hooks.example/a?token=t0k")), SECRET);
        String shown = webhooks.toString();
        assertFalse(shown.contains("MfKQ") || shown.contains("pw") || shown.contains("t0k"), shown);
        assertTrue(shown.contains("https://hooks.example/a"), shown);
    }

    @Test
    void theRetryPeriodIsThreeDaysUnlessSetToAtLeastAMinute() {
        var webhooks = Webhooks.to(RECEIVER, SECRET);
        assertEquals(Duration.ofHours(72), webhooks.retryPeriod());
        assertEquals(Duration.ofHours(24), webhooks.withRetryPeriod(Duration.ofHours(24)).retryPeriod());
        assertThrows(IllegalArgumentException.class, () -> webhooks.withRetryPeriod(Duration.ofSeconds(59)));
    }
}
