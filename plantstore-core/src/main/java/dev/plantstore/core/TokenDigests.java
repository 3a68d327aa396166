package dev.plantstore.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Static tokens kept as their digests, which the token verifier's {@code staticTokens} factories wrap. Compares
 * digests rather than tokens: every digest has the same length, so the comparison time says nothing about the length
 * or any prefix of a configured token, and the tokens themselves are not kept. It is not itself a verifier, so that
 * the interface that makes it is the only one of the two that knows the other.
 */
final class TokenDigests {

    /** RFC 6750 section 2.1, {@code b64token}. */
    private static final Pattern BEARER_TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    /** Looking SHA-256 up among the security providers costs more than hashing a token; copying a digest does not. */
    private static final MessageDigest SHA_256 = lookUpSha256();

    /** Names are logged as the principal, so they hold nothing that could break or forge a log line. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9\\-._@]{1,64}");

    private final List<byte[]> digests;
    private final List<Verification.Valid> grants;

    TokenDigests(Map<String, String> tokensByName) {
        Objects.requireNonNull(tokensByName, "null tokens");
        if (tokensByName.isEmpty()) {
            throw new IllegalArgumentException("at least one token is required");
        }
        List<byte[]> accepted = new ArrayList<>(tokensByName.size());
        List<Verification.Valid> named = new ArrayList<>(tokensByName.size());
        int position = 0;
        for (Map.Entry<String, String> entry : tokensByName.entrySet()) {
            position++;
            String name = entry.getKey();
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("the name of token " + position + " of " + tokensByName.size()
                        + " is not 1 to 64 letters, digits and -._@");
            }
            String token = entry.getValue();
            if (token == null || !BEARER_TOKEN.matcher(token).matches()) {
                throw new IllegalArgumentException("token " + position + " of " + tokensByName.size()
                        + " is not a valid bearer token (letters, digits and -._~+/ then optional =)");
            }
            accepted.add(digest(token));
            named.add(Verification.everyScope(name));
        }
        this.digests = List.copyOf(accepted);
        this.grants = List.copyOf(named);
    }

    Verification verify(String token) {
        if (token == null) {
            return Verification.invalid(Verification.Reason.MALFORMED);
        }
        byte[] presented = digest(token);
        for (int i = 0; i < digests.size(); i++) {
            // A match may end the loop: how soon tells only the holder of a valid token where it stands in the list.
            // A token that matches none is compared with every digest.
            if (MessageDigest.isEqual(digests.get(i), presented)) {
                return grants.get(i);
            }
        }
        return Verification.invalid(Verification.Reason.UNKNOWN_TOKEN);
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
