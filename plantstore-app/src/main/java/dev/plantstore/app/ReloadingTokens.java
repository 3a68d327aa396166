package dev.plantstore.app;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The static tokens, read again when the tokens file changes, so that a token is added, renamed or revoked without a
 * restart. The file is looked at every {@link #CHECK_EVERY}: the identity, mode and owner of each path a read checks
 * ({@link PrivateFile}: the file, the links on the way, their directories), the modification time and size of the
 * file and its links, and the file's contents, which change when it is edited in place, replaced by a rename (as
 * editors and configuration tools save), swapped under a symbolic link (as Kubernetes updates a mounted secret), or
 * has its permissions or owner fixed. A look opens nothing but a regular file of at most
 * {@link PrivateFile#MAX_BYTES}, and reads that in blocks.
 *
 * <p>A changed file is read only once it is stable: two looks in a row, {@link #CHECK_EVERY} apart, must find it the
 * same in all of these, contents included. A file still being written (a line at a time, or a byte at a time) is
 * waited for, not used half-way; and {@link Tokens#readFile} refuses a file whose last line has no newline yet, so
 * even a writer that stalls mid-line longer than the interval never gets a token cut short accepted. The stable file
 * is then checked as at start-up (permissions, owner, type, size, tokens); if it is refused, the tokens in use stay and
 * the refusal is logged, once per change.
 */
final class ReloadingTokens implements TokenVerifier, AutoCloseable {

    static final Duration CHECK_EVERY = Duration.ofSeconds(2);

    private static final System.Logger LOG = System.getLogger(ReloadingTokens.class.getName());

    /** What a read of the file reads: the configured tokens as a verifier, or why they were refused. */
    @FunctionalInterface
    interface Reader {
        TokenVerifier read() throws UsageException;
    }

    private final AtomicReference<TokenVerifier> current;
    private final StableFileWatch<Optional<PrivateFile.Look>, TokenVerifier> watch;

    private ReloadingTokens(Path file, Reader reader, TokenVerifier first, Optional<PrivateFile.Look> firstLook,
                            Duration checkEvery) {
        this.current = new AtomicReference<>(first);
        this.watch = new StableFileWatch<>("plantstore-tokens-file", LOG,
                new StableFileWatch.Wording<>("tokens file " + file, "is", "the tokens read before stay in use",
                        "the file is still watched", read -> "its tokens are in use"),
                firstLook, () -> PrivateFile.look(file), reader::read, current::set, () -> { }, checkEvery);
    }

    /** Reads the tokens now, failing as start-up fails, then watches {@code file} every {@code checkEvery}. */
    static ReloadingTokens watch(Path file, Reader reader, Duration checkEvery) throws UsageException {
        Optional<PrivateFile.Look> firstLook = PrivateFile.look(Objects.requireNonNull(file));
        return new ReloadingTokens(file, reader, reader.read(), firstLook, checkEvery);
    }

    @Override
    public Verification verify(String token) {
        return current.get().verify(token);
    }

    @Override
    public void close() {
        watch.close();
    }
}
