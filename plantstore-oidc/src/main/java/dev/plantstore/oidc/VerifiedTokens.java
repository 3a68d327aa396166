package dev.plantstore.oidc;

import com.nimbusds.jose.jwk.JWK;
import dev.plantstore.core.Verification;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Tokens already verified, until they expire or the key that verified them leaves the issuer's key set. Keyed by the
 * token's SHA-256 digest, so the tokens themselves are not kept; a token found here passed every check but its expiry
 * and its key's being published, which are checked again on every use. At most
 * {@link #CAPACITY} are kept: past that, the expired ones go, and if that is not enough, all of them, so a client
 * sending many valid tokens costs signature checks, never memory.
 */
final class VerifiedTokens {

    static final int CAPACITY = 10_000;

    /** Looking SHA-256 up among the security providers costs more than hashing a token: one per thread, reused. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(VerifiedTokens::lookUpSha256);

    private record Entry(Verification.Valid verification, Instant expiresAt, JWK key) {
    }

    private final ConcurrentHashMap<ByteBuffer, Entry> entries = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration clockSkew;
    private final Predicate<JWK> published;

    /** {@code published}: whether a key is still in the issuer's key set. */
    VerifiedTokens(Clock clock, Duration clockSkew, Predicate<JWK> published) {
        this.clock = clock;
        this.clockSkew = clockSkew;
        this.published = published;
    }

    Optional<Verification.Valid> find(String token) {
        ByteBuffer digest = digest(token);
        Entry entry = entries.get(digest);
        if (entry == null) {
            return Optional.empty();
        }
        if (isExpired(entry, clock.instant()) || !published.test(entry.key())) {
            entries.remove(digest, entry);
            return Optional.empty();
        }
        return Optional.of(entry.verification());
    }

    void remember(String token, Instant expiresAt, Verification.Valid verification, JWK key) {
        if (entries.size() >= CAPACITY) {
            Instant now = clock.instant();
            entries.values().removeIf(entry -> isExpired(entry, now));
            if (entries.size() >= CAPACITY) {
                entries.clear();
            }
        }
        entries.put(digest(token), new Entry(verification, expiresAt, key));
    }

    private boolean isExpired(Entry entry, Instant now) {
        return now.isAfter(entry.expiresAt().plus(clockSkew));
    }

    private static ByteBuffer digest(String token) {
        MessageDigest sha256 = SHA_256.get();
        sha256.reset();
        return ByteBuffer.wrap(sha256.digest(token.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest lookUpSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
