package dev.plantstore.oidc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.plantstore.core.Verification;
import dev.plantstore.core.Verification.Reason;
import dev.plantstore.testkit.CapturedLog;
import dev.plantstore.testkit.IdentityProvider;
import dev.plantstore.testkit.MisbehavingIdentityProvider;
import dev.plantstore.testkit.MisbehavingIdentityProvider.KeySetAnswer;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.Sockets;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a token from a real OAuth 2.0 server is found to be: who, with which scopes, or refused, and why. */
class OidcTokenVerifierTest {

    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final Duration FETCH_INTERVAL = Duration.ofSeconds(10);
    private static final Duration FETCH_TIMEOUT = OidcTokenVerifier.REQUEST_TIMEOUT;

    /** The verifiers' clock, which the tests move on rather than waiting for a fetch interval to pass. */
    private final MovableClock clock = new MovableClock();

    private IdentityProvider provider;
    private OidcTokenVerifier verifier;

    @BeforeEach
    void startProvider() {
        provider = IdentityProvider.start();
        verifier = verifierAt(clock);
    }

    @AfterEach
    void stop() {
        verifier.close();
        provider.close();
    }

    private OidcTokenVerifier verifierAt(Clock clock) {
        return verifierOf(provider.issuer(), clock);
    }

    private OidcTokenVerifier verifierOf(URI issuer, Clock at) {
        return new OidcTokenVerifier(issuer, IdentityProvider.AUDIENCE, SKEW, at, OidcTokenVerifier.KEY_REFRESH,
                FETCH_INTERVAL);
    }

    /**
     * A verifier on the system clock that fetches the keys again in the background a second after each fetch, as it
     * does every 5 minutes, and may fetch them twice a second.
     */
    private static OidcTokenVerifier refreshingEverySecond(URI issuer) {
        return new OidcTokenVerifier(issuer, IdentityProvider.AUDIENCE, SKEW, Clock.systemUTC(), Duration.ofSeconds(1),
                Duration.ofMillis(500));
    }

    private void afterTheFetchInterval() {
        clock.move(FETCH_INTERVAL);
    }

    /** A clock that stands still until a test moves it. */
    private static final class MovableClock extends Clock {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

        void move(Duration by) {
            now.updateAndGet(instant -> instant.plus(by));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the verifier needs no zone");
        }
    }

    @Test
    void aTokenWithBothScopesIsValidForItsSubjectWithBoth() {
        var valid = assertInstanceOf(Verification.Valid.class,
                verifier.verify(provider.token("billing-service", "plants:create plants:delete")));
        assertEquals("billing-service", valid.principal());
        assertEquals(Set.of("plants:create", "plants:delete"), valid.scopes());
    }

    @Test
    void aTokenWithOneScopeGrantsThatOneOnly() {
        var valid = assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", "plants:create")));
        assertTrue(valid.grants("plants:create"));
        assertTrue(!valid.grants("plants:delete"));
    }

    @Test
    void aTokenWithoutScopesIsValidAndGrantsNothing() {
        var valid = assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", List.of(
                IdentityProvider.AUDIENCE), Map.of(), Duration.ofHours(1))));
        assertEquals(Set.of(), valid.scopes());
    }

    @Test
    void scopesAreReadFromScpAsAStringOrAnArray() {
        var fromArray = assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", List.of(
                IdentityProvider.AUDIENCE), Map.of("scp", List.of("plants:create", "plants:delete")),
                Duration.ofHours(1))));
        assertEquals(Set.of("plants:create", "plants:delete"), fromArray.scopes());
        var fromString = assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", List.of(
                IdentityProvider.AUDIENCE), Map.of("scp", "plants:delete"), Duration.ofHours(1))));
        assertEquals(Set.of("plants:delete"), fromString.scopes());
    }

    @Test
    void theAudienceMayBeOneOfSeveral() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", List.of("billing",
                IdentityProvider.AUDIENCE), Map.of("scope", "plants:create"), Duration.ofHours(1))));
    }

    @Test
    void aTokenForAnotherAudienceIsInvalidAsAStringOrAnArray() {
        assertRefused(Reason.AUDIENCE, verifier.verify(provider.token("a", List.of("billing"),
                Map.of("scope", "plants:create"), Duration.ofHours(1))));
        assertRefused(Reason.AUDIENCE, verifier.verify(provider.token("a", List.of("billing",
                "reports"), Map.of("scope", "plants:create"), Duration.ofHours(1))));
        assertRefused(Reason.AUDIENCE, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").audience("billing").build())));
    }

    @Test
    void aTokenOfAnotherIssuerIsInvalid() {
        try (var other = IdentityProvider.start()) {
            assertRefused(Reason.ISSUER, verifier.verify(other.token("a", "plants:create")));
        }
        assertRefused(Reason.ISSUER, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").issuer(provider.issuer() + "/").build())));
    }

    @Test
    void anExpiredTokenIsValidJustInsideTheSkewAndInvalidOutside() {
        String token = provider.token("a", "plants:create");
        Instant expires = expiry(token);
        try (var inside = verifierAt(Clock.fixed(expires.plus(SKEW).minusSeconds(1), ZoneOffset.UTC));
             var outside = verifierAt(Clock.fixed(expires.plus(SKEW).plusSeconds(1), ZoneOffset.UTC))) {
            assertInstanceOf(Verification.Valid.class, inside.verify(token));
            assertRefused(Reason.EXPIRED, outside.verify(token));
        }
    }

    @Test
    void aTokenNotYetValidIsValidJustInsideTheSkewAndInvalidOutside() {
        String token = provider.token("a", "plants:create");
        Instant notBefore = notBefore(token);
        try (var inside = verifierAt(Clock.fixed(notBefore.minus(SKEW).plusSeconds(1), ZoneOffset.UTC));
             var outside = verifierAt(Clock.fixed(notBefore.minus(SKEW).minusSeconds(1), ZoneOffset.UTC))) {
            assertInstanceOf(Verification.Valid.class, inside.verify(token));
            assertRefused(Reason.NOT_YET_VALID, outside.verify(token));
        }
    }

    @Test
    void aTokenIssuedInTheFutureBeyondTheSkewIsInvalid() {
        long future = System.currentTimeMillis() + SKEW.toMillis() + 60_000;
        assertRefused(Reason.NOT_YET_VALID, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").issueTime(new java.util.Date(future)).build())));
    }

    @Test
    void aTokenWithoutExpiryIsInvalid() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").build())));
        assertRefused(Reason.MISSING_CLAIM, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").expirationTime(null).build())));
    }

    @Test
    void aTokenWithAChangedSignatureIsInvalid() {
        String token = provider.token("a", "plants:create");
        String signature = token.substring(token.lastIndexOf('.') + 1);
        byte[] bytes = Base64.getUrlDecoder().decode(signature);
        bytes[0] ^= 1;
        String changed = token.substring(0, token.lastIndexOf('.') + 1)
                + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertRefused(Reason.SIGNATURE, verifier.verify(changed));
    }

    @Test
    void aTokenWithEditedClaimsIsInvalid() throws Exception {
        String token = provider.token("a", "plants:create");
        String[] parts = token.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("plants:create", "plants:create plants:delete");
        String edited = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertInstanceOf(Verification.Valid.class, verifier.verify(token));
        assertRefused(Reason.SIGNATURE, verifier.verify(edited));
    }

    @Test
    void anUnsignedTokenIsInvalid() {
        String unsigned = new PlainJWT(provider.claims("a").claim("scope", "plants:create").build()).serialize();
        assertRefused(Reason.MALFORMED, verifier.verify(unsigned), "alg: none is no signed JWT's");
    }

    @Test
    void anHmacKeyedWithTheProvidersPublicKeyIsInvalid() throws Exception {
        RSAKey publicKey = provider.signingKey().toPublicJWK();
        var forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT)
                .keyID(publicKey.getKeyID()).build(), provider.claims("a").claim("scope", "plants:create").build());
        forged.sign(new MACSigner(publicKey.toRSAPublicKey().getEncoded()));
        assertRefused(Reason.ALGORITHM, verifier.verify(forged.serialize()));
        var fromJwkText = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT)
                .keyID(publicKey.getKeyID()).build(), provider.claims("a").build());
        fromJwkText.sign(new MACSigner(publicKey.toJSONString().getBytes(StandardCharsets.UTF_8)));
        assertRefused(Reason.ALGORITHM, verifier.verify(fromJwkText.serialize()));
    }

    @Test
    void aTokenWithoutKeyIdIsInvalid() {
        assertRefused(Reason.HEADER, verifier.verify(provider.sign(
                new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).build(), provider.claims("a")
                        .build())));
    }

    @Test
    void onlyAccessTokenTypesAreAccepted() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.sign(provider.header()
                .type(new JOSEObjectType("at+jwt")).build(), provider.claims("a").build())));
        assertRefused(Reason.HEADER, verifier.verify(provider.sign(provider.header()
                .type(new JOSEObjectType("id+jwt")).build(), provider.claims("b").build())));
        assertRefused(Reason.HEADER, verifier.verify(provider.sign(provider.header()
                .type(null).build(), provider.claims("c").build())));
    }

    @Test
    void typJwtIsAcceptedBesideAtJwtWhileAnIdTokenOfTheIssuerIsNoAccessToken() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.sign(provider.header()
                .type(JOSEObjectType.JWT).build(), provider.claims("a").claim("scope", "plants:create").build())),
                "Keycloak, Entra ID and Okta write typ JWT on access tokens");
        String idToken = provider.sign(provider.header().type(JOSEObjectType.JWT).build(), provider.claims("a")
                .audience("inventory-service").claim("azp", "inventory-service").claim("nonce", "n-0S6_WzA2Mj")
                .build());
        assertRefused(Reason.AUDIENCE, verifier.verify(idToken),
                "an ID token is meant for the client it was issued to");
    }

    @Test
    void aTokenWithoutSubjectIsInvalid() {
        assertRefused(Reason.MISSING_CLAIM, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").subject(null).build())));
    }

    @Test
    void aSignedTokenWithAClaimOfTheWrongTypeIsMalformed() {
        assertRefused(Reason.MALFORMED, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").claim("exp", "soon").build())), "exp as a string");
        assertRefused(Reason.MALFORMED, verifier.verify(provider.sign(provider.header().build(),
                provider.claims("a").claim("nbf", "later").build())), "nbf as a string");
    }

    @Test
    void whatIsNotAJwtAtAllIsRefusedAsSuch() {
        for (String token : List.of("", "abc", "...", "a.b.c.d", "static-token_1")) {
            assertRefused(Reason.NOT_A_JWT, verifier.verify(token), token);
        }
    }

    @Test
    void threePartsThatDoNotParseAsAJwtAreMalformed() {
        for (String token : List.of("a.b.c", "eyJhbGciOiJSUzI1NiJ9..", "e30.e30.")) {
            assertRefused(Reason.MALFORMED, verifier.verify(token), token);
        }
    }

    @Test
    void twoHundredUnknownKeyIdsCauseOneFetchOfTheKeySetPerInterval() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", "plants:create")));
        assertEquals(1, provider.keySetFetches());
        for (int i = 0; i < 200; i++) {
            assertInstanceOf(Verification.Unavailable.class, verifier.verify(madeUpKeyId("before-" + i)),
                    "a key not yet fetched may be new: the key set is fetched again once the interval allows");
        }
        assertEquals(0, provider.keySetFetches(), "no fetch within the interval");
        afterTheFetchInterval();
        assertRefused(Reason.KEY_UNKNOWN, verifier.verify(madeUpKeyId("after-0")),
                "a key id the key set does not hold once fetched again is refused");
        for (int i = 1; i < 200; i++) {
            assertInstanceOf(Verification.Unavailable.class, verifier.verify(madeUpKeyId("after-" + i)));
        }
        assertEquals(1, provider.keySetFetches(), "one fetch in the next interval");
    }

    private String madeUpKeyId(String keyId) {
        return provider.sign(provider.header().keyID("made-up-" + keyId).build(), provider.claims("a").build());
    }

    @Test
    void aTokenOfAKeyNotYetFetchedIsUnavailableUntilTheNextFetchIsAllowedAndThenValid() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", "plants:create")));
        provider.rotateKey(true);
        String ofNewKey = provider.token("b", "plants:create");
        clock.move(Duration.ofSeconds(4));
        assertEquals(Duration.ofSeconds(6), assertInstanceOf(Verification.Unavailable.class,
                verifier.verify(ofNewKey)).retryAfter());
        clock.move(Duration.ofSeconds(6));
        assertEquals("b", assertInstanceOf(Verification.Valid.class, verifier.verify(ofNewKey)).principal());
    }

    @Test
    void aTokenRememberedAsVerifiedIsInvalidOnceItsKeyLeavesTheKeySet() throws Exception {
        try (var refreshing = refreshingEverySecond(provider.issuer())) {
            String token = provider.token("a", "plants:create");
            assertInstanceOf(Verification.Valid.class, refreshing.verify(token));
            assertInstanceOf(Verification.Valid.class, refreshing.verify(token));
            provider.rotateKey(false);
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(50),
                    () -> Verification.invalid(Reason.KEY_UNKNOWN).equals(refreshing.verify(token))),
                    "its key was dropped from the key set the background refresh fetched");
            assertInstanceOf(Verification.Valid.class, refreshing.verify(provider.token("b", "plants:create")));
        }
    }

    @Test
    void aSignatureNotInCanonicalBase64UrlIsInvalidThoughTheSameTokenIsValid() {
        String token = Stream.generate(() -> provider.token("a", "plants:create"))
                .filter(candidate -> signatureOf(candidate).matches(".*[-_].*"))
                .limit(50).findFirst().orElseThrow();
        assertInstanceOf(Verification.Valid.class, verifier.verify(token));
        String signature = signatureOf(token);
        String signed = token.substring(0, token.length() - signature.length());
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        char last = signature.charAt(signature.length() - 1);
        assertEquals(2, signature.length() % 4, "an RS256 signature's last character carries 4 unused bits");
        List<String> variants = List.of(
                signed + signature + "==",
                signed + signature.replace('-', '+').replace('_', '/'),
                signed + signature.substring(0, signature.length() - 1) + alphabet.charAt(alphabet.indexOf(last) | 1));
        assertRefused(Reason.NOT_A_JWT, verifier.verify(variants.get(0)), "padded");
        assertRefused(Reason.NOT_A_JWT, verifier.verify(variants.get(1)), "base64, not base64url");
        assertRefused(Reason.MALFORMED, verifier.verify(variants.get(2)), "a stray bit in the last character");
        assertInstanceOf(Verification.Valid.class, verifier.verify(token));
    }

    private static void assertRefused(Reason reason, Verification verification) {
        assertEquals(Verification.invalid(reason), verification);
    }

    private static void assertRefused(Reason reason, Verification verification, String message) {
        assertEquals(Verification.invalid(reason), verification, message);
    }

    private static String signatureOf(String token) {
        return token.substring(token.lastIndexOf('.') + 1);
    }

    @Test
    void aKeySetSentSlowlyIsGivenUpAfterTheTimeOutAndItsTokensAreUnavailable() throws Exception {
        try (var slow = MisbehavingIdentityProvider.start();
             var waiting = verifierOf(slow.issuer(), clock)) {
            slow.answerKeySet(KeySetAnswer.DRIPPING);
            String token = slow.token("a", "plants:create");
            long started = System.nanoTime();
            var unavailable = assertTimeoutPreemptively(FETCH_TIMEOUT.multipliedBy(3), () -> waiting.verify(token));
            Duration waited = Duration.ofNanos(System.nanoTime() - started);
            assertInstanceOf(Verification.Unavailable.class, unavailable);
            assertTrue(waited.compareTo(FETCH_TIMEOUT.plusSeconds(2)) < 0, "waited about the time-out: " + waited);
            slow.answerKeySet(KeySetAnswer.PROMPT);
            afterTheFetchInterval();
            assertTrue(Poll.until(Duration.ofSeconds(5), Duration.ofMillis(50),
                    () -> waiting.verify(token) instanceof Verification.Valid), "valid once the keys arrive whole");
        }
    }

    @Test
    void aRefreshOfASlowKeySetEndsWithinTheTimeOutWhileKnownKeysKeepWorking() throws Exception {
        try (var slow = MisbehavingIdentityProvider.start();
             var waiting = refreshingEverySecond(slow.issuer())) {
            assertInstanceOf(Verification.Valid.class, waiting.verify(slow.token("a", "plants:create")));
            slow.answerKeySet(KeySetAnswer.DRIPPING);
            assertTrue(Poll.until(Duration.ofSeconds(3), Duration.ofMillis(10), () -> slow.keySetRequests() == 2),
                    "the background refresh asked for the keys");
            assertInstanceOf(Verification.Valid.class, assertTimeoutPreemptively(Duration.ofSeconds(1),
                    () -> waiting.verify(slow.token("b", "plants:create"))));
            assertTrue(Poll.until(FETCH_TIMEOUT.plusSeconds(3), Duration.ofMillis(10),
                    () -> slow.keySetRequests() >= 3),
                    "the refresh gave up within the time-out and the next one began");
            assertInstanceOf(Verification.Valid.class, waiting.verify(slow.token("c", "plants:create")),
                    "a failed refresh keeps the keys");
        }
    }

    @Test
    void aKeySetLargerThanTheLimitIsNotReadPastItAndItsTokensAreUnavailable() throws InterruptedException {
        for (KeySetAnswer answer : List.of(KeySetAnswer.ENDLESS, KeySetAnswer.OVERSIZED)) {
            try (var huge = MisbehavingIdentityProvider.start();
                 var waiting = verifierOf(huge.issuer(), Clock.systemUTC())) {
                huge.answerKeySet(answer);
                assertInstanceOf(Verification.Unavailable.class, waiting.verify(huge.token("a", "plants:create")),
                        answer.name());
                assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20),
                        () -> huge.keySetAnswersCutShort() == 1), answer + ": the verifier hung up before the 400 MiB "
                        + "end; sent " + huge.keySetBytesSent());
            }
        }
    }

    /**
     * What the verifier takes from the connection shows in the heap it allocates: the JDK's HttpURLConnection, asked
     * what is available or closed before the end, moved all the socket held into one buffer, copied whole once per
     * chunk, gigabytes for a key set refused at 1 MiB. The provider's count of bytes sent cannot tell: the kernel
     * buffers several MiB of a loopback connection either way.
     */
    @Test
    void aKeySetHundredsOfMiBLongIsRefusedForItsSizeAtTheCostOfAFewMiB() throws InterruptedException {
        var keysLog = CapturedLog.of(IssuerKeys.class.getName());
        try (var huge = MisbehavingIdentityProvider.start();
             var waiting = verifierOf(huge.issuer(), Clock.systemUTC())) {
            huge.answerKeySet(KeySetAnswer.ENDLESS);
            String token = huge.token("a", "plants:create");
            long allocatedBefore = allocatedBytes();
            assertInstanceOf(Verification.Unavailable.class, waiting.verify(token));
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20),
                    () -> huge.keySetAnswersCutShort() == 1), "the verifier hung up; sent " + huge.keySetBytesSent());
            long allocated = allocatedBytes() - allocatedBefore;
            assertTrue(allocated < 32 << 20, "the verifier allocated " + (allocated >> 20) + " MiB to refuse a key set "
                    + "at 1 MiB; the provider sent " + (huge.keySetBytesSent() >> 20) + " MiB");
            String failing = keysLog.messagesWith("cannot be fetched").stream().findFirst().orElseThrow();
            assertTrue(failing.contains("(" + huge.issuer() + "/keys sent more than 1048576 bytes)"), failing);
        } finally {
            keysLog.close();
        }
    }

    /**
     * Heap allocated so far by the threads alive now (the verifier's exchange and the HTTP client's threads outlive a
     * fetch). A total over the ended threads too is JDK 21's, not in the Java 17 API the tests compile against.
     */
    private static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures what threads allocate");
        long total = 0;
        for (long allocated : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            total += Math.max(0, allocated);
        }
        return total;
    }

    @Test
    void metadataNamingAKeySetThatIsNotHttpMakesTokensUnavailableUntilItIsCorrected() {
        try (var misnamed = MisbehavingIdentityProvider.start();
             var waiting = verifierOf(misnamed.issuer(), clock)) {
            misnamed.nameKeySetAt("file:///etc/passwd");
            String token = misnamed.token("a", "plants:create");
            assertEquals(FETCH_INTERVAL, assertInstanceOf(Verification.Unavailable.class, waiting.verify(token))
                    .retryAfter());
            misnamed.nameOwnKeySet();
            assertInstanceOf(Verification.Unavailable.class, waiting.verify(token), "not before the interval");
            afterTheFetchInterval();
            assertInstanceOf(Verification.Valid.class, waiting.verify(token), "the metadata is read again");
        }
    }

    @Test
    void aRotatedInKeyWorksWithoutRestartAndThePreviousKeepsWorkingWhilePublished() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", "plants:create")));
        String ofPreviousKey = provider.token("b", "plants:create");
        provider.rotateKey(true);
        String ofNewKey = provider.token("c", "plants:create");
        afterTheFetchInterval();
        assertInstanceOf(Verification.Valid.class, verifier.verify(ofNewKey));
        assertInstanceOf(Verification.Valid.class, verifier.verify(ofPreviousKey));
    }

    @Test
    void aKeyTheProviderNoLongerPublishesStopsWorkingAfterTheRefresh() throws Exception {
        try (var refreshing = refreshingEverySecond(provider.issuer())) {
            String ofPreviousKey = provider.token("b", "plants:create");
            assertInstanceOf(Verification.Valid.class, refreshing.verify(provider.token("a", "plants:create")));
            provider.rotateKey(false);
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(50),
                    () -> Verification.invalid(Reason.KEY_UNKNOWN).equals(refreshing.verify(ofPreviousKey))),
                    "refused once the background refresh fetched the key set without its key");
        }
    }

    @Test
    void aKeyIdTheProviderDroppedIsRefusedWithoutAFetchThoughTheIntervalAllowsOne() {
        String ofPreviousKey = provider.token("b", "plants:create");
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", "plants:create")));
        provider.rotateKey(false);
        afterTheFetchInterval();
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("c", "plants:create")),
                "the new key is fetched, and the previous one is seen gone");
        assertEquals(2, provider.keySetFetches());
        afterTheFetchInterval();
        assertRefused(Reason.KEY_UNKNOWN, verifier.verify(ofPreviousKey));
        assertEquals(0, provider.keySetFetches(), "a key the provider dropped is not looked for again");
    }

    @Test
    void cachedKeysKeepWorkingWhileTheProviderIsDown() {
        assertInstanceOf(Verification.Valid.class, verifier.verify(provider.token("a", "plants:create")));
        String notYetSeen = provider.token("b", "plants:delete");
        String ofUnknownKey = provider.sign(provider.header().keyID("rotated-while-down").build(),
                provider.claims("c").build());
        provider.close();
        afterTheFetchInterval();
        var valid = assertInstanceOf(Verification.Valid.class, verifier.verify(notYetSeen));
        assertEquals("b", valid.principal());
        var unavailable = assertInstanceOf(Verification.Unavailable.class, verifier.verify(ofUnknownKey),
                "a key that could not be fetched is not a forged token");
        assertEquals(FETCH_INTERVAL, unavailable.retryAfter());
    }

    @Test
    void aProviderDownAtStartUpMakesTokensUnavailableUntilItComesUp() throws Exception {
        int port = Sockets.freePort();
        try (var later = IdentityProvider.notStartedOn(port);
             var waiting = verifierOf(later.issuer(), clock)) {
            String token = later.sign(later.header().build(), later.claims("a").claim("scope", "plants:create")
                    .build());
            assertEquals(FETCH_INTERVAL, assertInstanceOf(Verification.Unavailable.class, waiting.verify(token))
                    .retryAfter());
            later.startServer();
            assertInstanceOf(Verification.Unavailable.class, waiting.verify(token),
                    "no second fetch within the interval");
            afterTheFetchInterval();
            assertInstanceOf(Verification.Valid.class, waiting.verify(token));
        }
    }

    @Test
    void anIssuerThatIsNotAnHttpUrlIsRefused() {
        for (String issuer : List.of("ftp://idp.example", "/realms/plants", "https://idp.example/?a=b",
                "https://idp.example/#x")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> OidcTokenVerifier.start(URI.create(issuer), "plantstore", SKEW), issuer);
        }
    }

    private static Instant expiry(String token) {
        return claims(token).getExpirationTime().toInstant();
    }

    private static Instant notBefore(String token) {
        return claims(token).getNotBeforeTime().toInstant();
    }

    private static JWTClaimsSet claims(String token) {
        try {
            return SignedJWT.parse(token).getJWTClaimsSet();
        } catch (java.text.ParseException e) {
            throw new AssertionError(e);
        }
    }
}
