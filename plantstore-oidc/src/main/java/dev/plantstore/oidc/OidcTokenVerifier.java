package dev.plantstore.oidc;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import dev.plantstore.core.Verification.Reason;
import dev.plantstore.core.threads.DaemonThreads;
import java.net.URI;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Verifies JWT access tokens (RFC 9068) of one OpenID Connect or OAuth 2.0 identity provider with nimbus-jose-jwt's
 * {@link DefaultJWTProcessor}: the signature (RSA or EC only, by the key set the issuer's metadata names, chosen by
 * {@code kid}), {@code typ}, {@code iss}, {@code aud}, {@code exp}/{@code nbf}/{@code iat} within the clock skew,
 * {@code sub} as principal, scopes from {@code scope} or {@code scp}. A refusal's {@link Verification.Reason} is the
 * first rule broken; a token no key could be had for is {@link Verification.Unavailable}, for the client to retry.
 * Keys are cached and refreshed every {@link #KEY_REFRESH}, fetched again for an unknown {@code kid} at most once per
 * {@link #MIN_FETCH_INTERVAL}, each fetch bounded by {@link #REQUEST_TIMEOUT}; a verified token is remembered by its
 * digest until it expires. docs/tokens.md says what is checked and why a token was refused. Thread-safe;
 * {@link #close()} stops the background refresh.
 */
public final class OidcTokenVerifier implements TokenVerifier, AutoCloseable {

    /** The clock skew unless {@link #start(URI, String, Duration)} is given another. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);

    /** How often the key set is fetched again in the background, once it was first needed. */
    public static final Duration KEY_REFRESH = Duration.ofMinutes(5);

    /** At most one fetch of the key set per this interval for tokens that name unknown keys. */
    public static final Duration MIN_FETCH_INTERVAL = Duration.ofSeconds(10);

    /** The longest a fetch of one document may take, its body included, and the longest a token waits for a fetch. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
            JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256,
            JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    /**
     * RFC 9068 asks for {@code at+jwt} so that no other JWT of the issuer, an ID token above all, passes for an access
     * token. {@code JWT} is accepted too: Keycloak, Entra ID and Okta's custom servers write it on their access tokens,
     * and refusing it would refuse them. What the type check guards against is still refused by the other checks: an ID
     * token's {@code aud} is the client it was issued to, not this service's audience, and it carries no scope, so it
     * grants no operation.
     */
    private static final DefaultJOSEObjectTypeVerifier<Check> ACCESS_TOKEN_TYPES = new DefaultJOSEObjectTypeVerifier<>(
            new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), JOSEObjectType.JWT);

    private final String issuer;
    private final String audience;
    private final Duration clockSkew;
    private final Clock clock;
    private final IssuerKeys keys;
    private final ScheduledExecutorService refresher;
    private final JWSVerificationKeySelector<SecurityContext> keySelector;
    private final DefaultJWTProcessor<Check> processor = new DefaultJWTProcessor<>();
    private final VerifiedTokens verified;

    /**
     * {@code clock} for the tokens' times and the interval between fetches; {@code keyRefresh}, how long after a fetch
     * the next is made in the background; {@code minFetchInterval}, the shortest time between two fetches.
     */
    OidcTokenVerifier(URI issuer, String audience, Duration clockSkew, Clock clock, Duration keyRefresh,
                      Duration minFetchInterval) {
        this.issuer = issuer.toString();
        this.audience = requireText(audience, "audience");
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("clock skew must not be negative");
        }
        this.clockSkew = clockSkew;
        this.clock = clock;
        this.keys = new IssuerKeys(issuer, REQUEST_TIMEOUT, minFetchInterval, clock);
        this.refresher = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("plantstore-oidc-keys"));
        long timeout = REQUEST_TIMEOUT.toMillis();
        // The cached keys live long enough for the scheduled refresh keyRefresh after a fetch to take its time, and a
        // token coming after that (the refresh did not happen) refreshes them in the background too. The fetch limit is
        // the keys' own (nimbus's lets two fetches through per interval), and a failed fetch keeps the keys for good.
        JWKSource<SecurityContext> keySource = JWKSourceBuilder.create(keys)
                .rateLimited(false)
                .outageTolerantForever()
                .cache(keyRefresh.toMillis() + 2 * timeout, timeout)
                .refreshAheadCache(timeout, null, refresher, false, refresher, false)
                .build();
        this.keySelector = new JWSVerificationKeySelector<>(ALGORITHMS, keySource);
        processor.setJWSTypeVerifier((type, check) -> {
            try {
                ACCESS_TOKEN_TYPES.verify(type, check);
            } catch (BadJOSEException e) {
                throw check.refuse(Reason.HEADER);
            }
        });
        processor.setJWTClaimsSetAwareJWSKeySelector(this::keysFor);
        // Not nimbus's DefaultJWTClaimsVerifier: it checks for missing claims before the audience and the times, does
        // not look at iat, and says why only in its message, where each reason here has its metric label and its place
        // in the documented order.
        processor.setJWTClaimsSetVerifier((claims, check) -> {
            Optional<Reason> refused = refusal(claims);
            if (refused.isPresent()) {
                throw check.refuse(refused.get());
            }
        });
        this.verified = new VerifiedTokens(clock, clockSkew, keys::publishes);
    }

    /**
     * A verifier for tokens from {@code issuer} (an {@code http} or {@code https} URL, exactly as the provider writes
     * it in {@code iss}) meant for {@code audience}. Nothing is fetched until a token needs it.
     *
     * @throws IllegalArgumentException when the issuer is not an absolute http(s) URL without query or fragment, the
     *                                  audience is blank, or the clock skew is negative
     */
    public static OidcTokenVerifier start(URI issuer, String audience, Duration clockSkew) {
        requireIssuer(issuer);
        return new OidcTokenVerifier(issuer, audience, clockSkew, Clock.systemUTC(), KEY_REFRESH, MIN_FETCH_INTERVAL);
    }

    /**
     * {@code issuer} if {@link #start} takes it: an absolute http or https URL with a host, without query or fragment.
     *
     * @throws IllegalArgumentException when it is not
     */
    public static URI requireIssuer(URI issuer) {
        Objects.requireNonNull(issuer, "null issuer");
        String scheme = issuer.getScheme();
        if (!issuer.isAbsolute() || !("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme))
                || issuer.getHost() == null || issuer.getRawQuery() != null || issuer.getRawFragment() != null) {
            throw new IllegalArgumentException("the issuer must be an http or https URL without query or fragment: "
                    + issuer);
        }
        return issuer;
    }

    @Override
    public Verification verify(String token) {
        if (token == null || !isCompactSerialization(token)) {
            return Verification.invalid(Reason.NOT_A_JWT);
        }
        Optional<Verification.Valid> remembered = verified.find(token);
        if (remembered.isPresent()) {
            return remembered.get();
        }
        if (!hasCanonicalSignature(token)) {
            return Verification.invalid(Reason.MALFORMED);
        }
        Check check = new Check();
        try {
            // Parsed here: the processor's own parsing takes alg: none for another kind of JWT; here it is malformed.
            SignedJWT jwt = SignedJWT.parse(token);
            JWTClaimsSet claims = processor.process(jwt, check);
            var valid = Verification.valid(claims.getSubject(), scopes(claims));
            keys.published(jwt.getHeader().getKeyID()).ifPresent(key ->
                    verified.remember(token, claims.getExpirationTime().toInstant(), valid, key));
            return valid;
        } catch (ParseException e) {
            return Verification.invalid(Reason.MALFORMED);
        } catch (BadJOSEException | JOSEException e) {
            // Each check of ours notes why it refused; the processor reads the claims before the signature, and a
            // claim of the wrong type fails that reading; what is left is the signature's.
            return check.outcome.orElse(Verification.invalid(
                    e.getCause() instanceof ParseException ? Reason.MALFORMED : Reason.SIGNATURE));
        }
    }

    /** Stops the background refresh of the keys and any fetch under way. */
    @Override
    public void close() {
        refresher.shutdownNow();
        keys.close();
    }

    /**
     * The processor's key selector: the header's {@code kid} and algorithm, and the issuer, are checked before a key is
     * looked for, so that a token naming another issuer costs no fetch; a key id the provider dropped is refused
     * without one. No key found is noted in the check: unknown, not for this algorithm, or not to be had now.
     */
    private List<? extends Key> keysFor(JWSHeader header, JWTClaimsSet claims, Check check) {
        String keyId = header.getKeyID();
        Optional<Reason> refused = keyId == null ? Optional.of(Reason.HEADER)
                : !keySelector.isAllowed(header.getAlgorithm()) ? Optional.of(Reason.ALGORITHM)
                : !issuer.equals(claims.getIssuer()) ? Optional.of(Reason.ISSUER)
                : keys.retired(keyId) ? Optional.of(Reason.KEY_UNKNOWN)
                : Optional.empty();
        if (refused.isPresent()) {
            check.note(Verification.invalid(refused.get()));
            return List.of();
        }
        Optional<Duration> unavailable = Optional.empty();
        try {
            List<Key> found = keySelector.selectJWSKeys(header, check);
            if (!found.isEmpty()) {
                return found;
            }
        } catch (KeySourceException e) {
            unavailable = Optional.of(e instanceof IssuerKeys.FetchNotAllowed notYet ? notYet.retryAfter()
                    : keys.untilNextFetch());
        }
        if (keys.published(keyId).isPresent()) {
            // Held, but not for this algorithm or not for signatures.
            check.note(Verification.invalid(Reason.SIGNATURE));
        } else if (keys.retired(keyId)) {
            check.note(Verification.invalid(Reason.KEY_UNKNOWN));
        } else if (unavailable.isPresent() || keys.failing()) {
            check.note(Verification.unavailable(unavailable.orElseGet(keys::untilNextFetch)));
        } else {
            check.note(Verification.invalid(Reason.KEY_UNKNOWN));
        }
        return List.of();
    }

    /** One token's way through the processor: what refused it, noted by the check that did. */
    private static final class Check implements SecurityContext {
        private Optional<Verification> outcome = Optional.empty();

        void note(Verification refusal) {
            outcome = Optional.of(refusal);
        }

        /** Notes the reason, and gives what the processor's checks throw to stop it. */
        BadJWTException refuse(Reason reason) {
            note(Verification.invalid(reason));
            return new BadJWTException(reason.name());
        }
    }

    /**
     * A signed JWT is three base64url parts joined by dots (RFC 7515 section 7.1): no padding, no {@code +} or
     * {@code /}. Anything else is refused before its digest is taken, so that asking this verifier about another kind
     * of token (a static one) costs almost nothing, and so that one token cannot be written in several ways.
     */
    private static boolean isCompactSerialization(String token) {
        int dots = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '.') {
                if (++dots > 2) {
                    return false;
                }
            } else if (base64UrlValue(c) < 0) {
                return false;
            }
        }
        return dots == 2;
    }

    /**
     * The signature's last character may carry bits past its last byte, which decoding drops; only the encoding with
     * those bits zero is the signature (RFC 4648 section 3.5), so that a token has one digest, and one place in the
     * cache of verified tokens.
     */
    private static boolean hasCanonicalSignature(String token) {
        int start = token.lastIndexOf('.') + 1;
        int length = token.length() - start;
        int unusedBits = switch (length % 4) {
            case 0 -> 0;
            case 2 -> 4;
            case 3 -> 2;
            default -> -1;
        };
        if (unusedBits <= 0) {
            return unusedBits == 0;
        }
        return (base64UrlValue(token.charAt(token.length() - 1)) & ((1 << unusedBits) - 1)) == 0;
    }

    /** The 6 bits a base64url character stands for, or -1 for any other character. */
    private static int base64UrlValue(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '-' ? 62 : c == '_' ? 63 : -1;
    }

    /**
     * What is wrong with the signed claims, if anything: their audience, times and subject. The issuer was checked
     * when its keys were chosen.
     */
    private Optional<Reason> refusal(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Date expires = claims.getExpirationTime();
        Date notBefore = claims.getNotBeforeTime();
        Date issuedAt = claims.getIssueTime();
        List<String> audiences = claims.getAudience();
        String subject = claims.getSubject();
        if (audiences == null || !audiences.contains(audience)) {
            return Optional.of(Reason.AUDIENCE);
        }
        if (expires != null && now.isAfter(expires.toInstant().plus(clockSkew))) {
            return Optional.of(Reason.EXPIRED);
        }
        if (notBefore != null && now.isBefore(notBefore.toInstant().minus(clockSkew))
                || issuedAt != null && now.isBefore(issuedAt.toInstant().minus(clockSkew))) {
            return Optional.of(Reason.NOT_YET_VALID);
        }
        if (expires == null || subject == null || subject.isBlank()) {
            return Optional.of(Reason.MISSING_CLAIM);
        }
        return Optional.empty();
    }

    /** {@code scope} is RFC 9068's, a space-separated string; {@code scp} is how several providers write it. */
    private static Set<String> scopes(JWTClaimsSet claims) throws ParseException {
        Set<String> scopes = new LinkedHashSet<>();
        Object scope = claims.getClaim("scope");
        if (scope instanceof String spaced) {
            scopes.addAll(words(spaced));
        }
        Object scp = claims.getClaim("scp");
        if (scp instanceof String spaced) {
            scopes.addAll(words(spaced));
        } else if (scp instanceof List<?>) {
            scopes.addAll(claims.getStringListClaim("scp"));
        }
        return scopes;
    }

    private static List<String> words(String spaced) {
        return Arrays.stream(spaced.split(" ")).filter(word -> !word.isEmpty()).toList();
    }

    private static String requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the " + what + " must not be blank");
        }
        return value;
    }
}
