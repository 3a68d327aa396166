package dev.plantstore.app;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Where the server's bearer tokens come from: the environment, a file, or, failing both, a fresh random one. */
final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /** The configured tokens from {@code PLANTSTORE_TOKENS} and the tokens file together; empty when there are none. */
    static List<String> configured(Optional<String> environmentValue, Optional<Path> tokensFile)
            throws UsageException {
        return List.copyOf(named(environmentValue, tokensFile).values());
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
            if (byName.put(name, entry.substring(colon + 1).strip()) != null) {
                throw new UsageException("two tokens are named " + name + "; each name must be one token's");
            }
        }
        return byName;
    }

    /**
     * One token per line, optionally {@code name:token}; blank lines and lines starting with {@code #} are skipped,
     * surrounding spaces trimmed. A file other users may read or write is refused: its tokens are as good as public.
     */
    static List<String> readFile(Path file) throws UsageException {
        List<String> tokens = new ArrayList<>();
        for (String line : readPrivate(file, "tokens file")) {
            String token = line.strip();
            if (!token.isEmpty() && !token.startsWith("#")) {
                tokens.add(token);
            }
        }
        return tokens;
    }

    /**
     * The lines of a file of secrets, {@code what} naming it in messages. A file other users may read or write is
     * refused: its secrets are as good as public.
     */
    static List<String> readPrivate(Path file, String what) throws UsageException {
        requirePrivate(file, what);
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException(what + " " + file + " does not exist");
        } catch (MalformedInputException e) {
            throw new UsageException(what + " " + file + " is not UTF-8 text");
        } catch (IOException e) {
            throw new UsageException(what + " " + file + " cannot be read: " + e.getMessage());
        }
    }

    private static void requirePrivate(Path file, String what) throws UsageException {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return;
        } catch (NoSuchFileException e) {
            throw new UsageException(what + " " + file + " does not exist");
        } catch (IOException e) {
            throw new UsageException(what + " " + file + " cannot be read: " + e.getMessage());
        }
        Set<PosixFilePermission> shared = EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
        shared.retainAll(permissions);
        if (!shared.isEmpty()) {
            throw new UsageException(what + " " + file + " is open to other users (" + PosixFilePermissions.toString(
                    permissions) + "); make it private with: chmod 600 " + file);
        }
    }

    /** 256 random bits, base64url without padding: 43 characters, valid as a bearer token and in a shell. */
    static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
