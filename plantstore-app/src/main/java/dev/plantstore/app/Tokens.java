package dev.plantstore.app;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where the server's bearer tokens come from: the environment, a file, or, failing both, a fresh random one. */
final class Tokens {

    /**
     * The shortest token accepted, in characters. Not a strength: a token guessed at the refused-token limit (30 a
     * minute) is safe at this length, and the generated one has 43. It refuses what is plainly not a whole token: a
     * stray fragment, a line cut short, a placeholder such as {@code x}.
     */
    static final int MIN_TOKEN_LENGTH = 8;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /**
     * The configured tokens by name, the principal a request with that token is logged as. An entry is a token, or
     * {@code name:token} (a bearer token holds no colon, so the first one ends the name); an entry without a name is
     * {@code token-1}, {@code token-2}, ... by its position among all the entries, those of {@code PLANTSTORE_TOKENS}
     * first. Empty when there are none.
     */
    static Map<String, String> named(Optional<String> environmentValue, Optional<Path> tokensFile)
            throws UsageException {
        List<String> entries = new ArrayList<>();
        if (environmentValue.isPresent()) {
            for (String token : environmentValue.get().split(",")) {
                if (!token.isBlank()) {
                    entries.add(token.strip());
                }
            }
        }
        if (tokensFile.isPresent()) {
            List<String> fromFile = readFile(tokensFile.get());
            if (fromFile.isEmpty()) {
                throw new UsageException("tokens file " + tokensFile.get() + " holds no token");
            }
            entries.addAll(fromFile);
        }
        Map<String, String> byName = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            int colon = entry.indexOf(':');
            String name = colon < 0 ? "token-" + (i + 1) : entry.substring(0, colon).strip();
            String token = entry.substring(colon + 1).strip();
            if (token.length() < MIN_TOKEN_LENGTH) {
                throw new UsageException("token " + name + " has " + token.length() + " characters; a token needs at "
                        + "least " + MIN_TOKEN_LENGTH);
            }
            if (byName.put(name, token) != null) {
                throw new UsageException("two tokens are named " + name + "; each name must be one token's");
            }
        }
        return byName;
    }

    /**
     * One token per line, optionally {@code name:token}; blank lines and lines starting with {@code #} are skipped,
     * surrounding spaces trimmed. A file that is not private by the rules of {@link PrivateFile} is refused: its
     * tokens are as good as public. So is a file whose last line does not end with a newline: that line may be one
     * still being written, and a token cut short must never be accepted.
     */
    static List<String> readFile(Path file) throws UsageException {
        String text = PrivateFile.readText(file, "tokens file");
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new UsageException("tokens file " + file + " does not end with a newline: its last line may still be "
                    + "being written; end every line with one");
        }
        List<String> tokens = new ArrayList<>();
        for (String line : text.lines().toList()) {
            String token = line.strip();
            if (!token.isEmpty() && !token.startsWith("#")) {
                tokens.add(token);
            }
        }
        return tokens;
    }

    /**
     * The lines of a file of secrets, {@code what} naming it in messages, read only when {@link PrivateFile} finds it
     * private: its secrets would otherwise be as good as public.
     */
    static List<String> readPrivate(Path file, String what) throws UsageException {
        return PrivateFile.readText(file, what).lines().toList();
    }

    /** 256 random bits, base64url without padding: 43 characters, valid as a bearer token and in a shell. */
    static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
