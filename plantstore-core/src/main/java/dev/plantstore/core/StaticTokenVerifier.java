package dev.plantstore.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * Compares digests rather than tokens: every digest has the same length, so the comparison time says nothing about
 * the length or any prefix of a configured token, and the tokens themselves are not kept.
 */
final class StaticTokenVerifier implements TokenVerifier {

    /** RFC 6750 section 2.1, {@code b64token}. */
    private static final Pattern BEARER_TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    /** Looking SHA-256 up among the security providers costs more than hashing a token; copying a digest does not. */
    private static final MessageDigest SHA_256 = lookUpSha256();

    private final List<byte[]> digests;
    private final BiPredicate<byte[], byte[]> constantTimeEquals;

    StaticTokenVerifier(Collection<String> tokens) {
        this(tokens, MessageDigest::isEqual);
    }

    /** With the comparison given, so a test can watch what is compared: always every digest, never a token. */
    StaticTokenVerifier(Collection<String> tokens, BiPredicate<byte[], byte[]> constantTimeEquals) {
        this.constantTimeEquals = constantTimeEquals;
        Objects.requireNonNull(tokens, "null tokens");
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("at least one token is required");
        }
        List<byte[]> accepted = new ArrayList<>(tokens.size());
        int position = 0;
        for (String token : tokens) {
            position++;
            if (token == null || !BEARER_TOKEN.matcher(token).matches()) {
                throw new IllegalArgumentException("token " + position + " of " + tokens.size()
                        + " is not a valid bearer token (letters, digits and -._~+/ then optional =)");
            }
            accepted.add(digest(token));
        }
        this.digests = List.copyOf(accepted);
    }

    @Override
    public boolean verify(String token) {
        if (token == null) {
            return false;
        }
        byte[] presented = digest(token);
        boolean matched = false;
        for (byte[] known : digests) {
            // No early exit: the time taken must not depend on which token, if any, matched.
            matched |= constantTimeEquals.test(known, presented);
        }
        return matched;
    }

    private static byte[] digest(String token) {
        return newSha256().digest(token.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest newSha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            return lookUpSha256();
        }
    }

    private static MessageDigest lookUpSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
