package dev.plantstore.oidc;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import dev.plantstore.core.Verification.Reason;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Verifies JWT access tokens (RFC 9068) issued by one OpenID Connect or OAuth 2.0 identity provider:
 *
 * <ul>
 *   <li>the signature, with a key from the key set the issuer publishes (its metadata's {@code jwks_uri}), chosen by
 *       the token's {@code kid}; only RSA and elliptic-curve signatures are accepted ({@code RS256} to {@code RS512},
 *       {@code PS256} to {@code PS512}, {@code ES256} to {@code ES512}), and only with a key of that type that allows
 *       the algorithm, so neither {@code alg: none} nor an HMAC keyed with a public key can pass;</li>
 *   <li>the header's {@code typ}: {@code at+jwt} (or {@code application/at+jwt}) or {@code JWT};</li>
 *   <li>{@code iss} exactly the configured issuer; {@code aud}, a string or an array, containing the audience;
 *       {@code exp} present and not past, {@code nbf} not to come, {@code iat} not in the future, each give or take the
 *       clock skew; {@code sub} present, as the principal;</li>
 *   <li>scopes from {@code scope} (space-separated) or {@code scp} (a string or an array).</li>
 * </ul>
 * A token refused is {@link Verification.Invalid} with the first of these rules it breaks as its
 * {@link Verification.Reason}.
 *
 * <p>Start-up does not need the provider: the keys are fetched when a token first needs them, refreshed every
 * {@link #KEY_REFRESH} in the background, and fetched again when a token of this issuer names a key not among them, at
 * most once per {@link #MIN_FETCH_INTERVAL} whatever the number of such tokens. Each fetch reads at most 1 MiB per
 * document and gives up after {@link #REQUEST_TIMEOUT}, body included; a token waits for a fetch no longer than that.
 * Keys once fetched keep working while the provider is unreachable. A token that cannot be checked because no key
 * could be had is {@link Verification.Unavailable}: the token may be fine, and a client should retry. So is a token
 * naming a key not held that the provider may just have added, until the key set may be fetched again; a key the
 * provider dropped is invalid at once. A verified token is remembered, by its SHA-256 digest, until it expires or its
 * key leaves the key set, so a client reusing its token costs a digest rather than a signature check.
 *
 * <p>Thread-safe. {@link #close()} stops the background refresh.
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

    private static final Set<JWSAlgorithm> RSA_ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
            JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512);
    private static final Map<JWSAlgorithm, Curve> EC_ALGORITHMS = Map.of(
            JWSAlgorithm.ES256, Curve.P_256, JWSAlgorithm.ES384, Curve.P_384, JWSAlgorithm.ES512, Curve.P_521);
    private static final Set<JOSEObjectType> ACCESS_TOKEN_TYPES = Set.of(
            new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), JOSEObjectType.JWT);

    private final String issuer;
    private final String audience;
    private final Duration clockSkew;
    private final IssuerKeys keys;
    private final Clock clock;
    private final VerifiedTokens verified;
    private final Optional<ScheduledExecutorService> refresher;

    OidcTokenVerifier(URI issuer, String audience, Duration clockSkew, IssuerKeys keys, Clock clock,
                      Optional<Duration> keyRefresh) {
        this.issuer = issuer.toString();
        this.audience = requireText(audience, "audience");
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("clock skew must not be negative");
        }
        this.clockSkew = clockSkew;
        this.keys = keys;
        this.clock = clock;
        this.verified = new VerifiedTokens(clock, clockSkew, keys::publishes);
        this.refresher = keyRefresh.map(every -> {
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "plantstore-oidc-keys");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleWithFixedDelay(this::refreshKeys, every.toNanos(), every.toNanos(),
                    TimeUnit.NANOSECONDS);
            return executor;
        });
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
        return new OidcTokenVerifier(issuer, audience, clockSkew,
                new IssuerKeys(issuer, REQUEST_TIMEOUT, MIN_FETCH_INTERVAL, System::nanoTime), Clock.systemUTC(),
                Optional.of(KEY_REFRESH));
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
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            return Verification.invalid(Reason.MALFORMED);
        }
        JWSHeader header = jwt.getHeader();
        if (!isAccessTokenType(header.getType()) || header.getKeyID() == null) {
            return Verification.invalid(Reason.HEADER);
        }
        if (!isAsymmetric(header.getAlgorithm())) {
            return Verification.invalid(Reason.ALGORITHM);
        }
        // Not verified yet, but a token naming another issuer can be refused without looking for its key.
        if (!issuer.equals(claims.getIssuer())) {
            return Verification.invalid(Reason.ISSUER);
        }
        IssuerKeys.Lookup lookup = keys.find(header.getKeyID());
        if (lookup instanceof IssuerKeys.Unavailable unavailable) {
            return Verification.unavailable(unavailable.retryAfter());
        }
        if (!(lookup instanceof IssuerKeys.Found found)) {
            return Verification.invalid(Reason.KEY_UNKNOWN);
        }
        if (!signatureHolds(jwt, found.key())) {
            return Verification.invalid(Reason.SIGNATURE);
        }
        try {
            Optional<Reason> refused = refusal(claims);
            if (refused.isPresent()) {
                return Verification.invalid(refused.get());
            }
            var valid = Verification.valid(claims.getSubject(), scopes(claims));
            verified.remember(token, claims.getExpirationTime().toInstant(), valid, found.key());
            return valid;
        } catch (ParseException e) {
            return Verification.invalid(Reason.MALFORMED);
        }
    }

    /** Stops the background refresh of the keys and any fetch under way. */
    @Override
    public void close() {
        refresher.ifPresent(ScheduledExecutorService::shutdownNow);
        keys.close();
    }

    /** What the background refresh does, for a test that cannot wait for it. */
    void refreshKeysNow() {
        keys.refresh();
    }

    /** The background refresh; its failures are the keys' to log, and nothing may end the schedule. */
    private void refreshKeys() {
        try {
            keys.refresh();
        } catch (RuntimeException e) {
            System.getLogger(OidcTokenVerifier.class.getName()).log(System.Logger.Level.ERROR,
                    "refreshing the identity provider's keys failed unexpectedly", e);
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

    private static boolean isAccessTokenType(JOSEObjectType type) {
        return type != null && ACCESS_TOKEN_TYPES.stream()
                .anyMatch(accepted -> accepted.getType().equalsIgnoreCase(type.getType()));
    }

    private static boolean isAsymmetric(JWSAlgorithm algorithm) {
        return RSA_ALGORITHMS.contains(algorithm) || EC_ALGORITHMS.containsKey(algorithm);
    }

    /** The key must be a signing key of the algorithm's type, allow that algorithm, and hold up the signature. */
    private static boolean signatureHolds(SignedJWT jwt, JWK key) {
        JWSAlgorithm algorithm = jwt.getHeader().getAlgorithm();
        if (key.getKeyUse() != null && !KeyUse.SIGNATURE.equals(key.getKeyUse())
                || key.getAlgorithm() != null && !key.getAlgorithm().equals(algorithm)) {
            return false;
        }
        try {
            JWSVerifier verifier;
            if (RSA_ALGORITHMS.contains(algorithm) && key instanceof RSAKey rsa) {
                verifier = new RSASSAVerifier(rsa.toRSAPublicKey());
            } else if (key instanceof ECKey ec && ec.getCurve().equals(EC_ALGORITHMS.get(algorithm))) {
                verifier = new ECDSAVerifier(ec.toECPublicKey());
            } else {
                return false;
            }
            return jwt.verify(verifier);
        } catch (JOSEException e) {
            return false;
        }
    }

    /** What is wrong with the signed claims, if anything: their issuer, audience, times and subject. */
    private Optional<Reason> refusal(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Date expires = claims.getExpirationTime();
        Date notBefore = claims.getNotBeforeTime();
        Date issuedAt = claims.getIssueTime();
        List<String> audiences = claims.getAudience();
        String subject = claims.getSubject();
        if (!issuer.equals(claims.getIssuer())) {
            return Optional.of(Reason.ISSUER);
        }
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
