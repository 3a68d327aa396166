package dev.plantstore.app;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The static tokens, read again when the tokens file changes, so a token is added, renamed or revoked without a
 * restart. Every {@link #CHECK_EVERY} it compares what a read checks ({@link PrivateFile}: identity, mode and owner of
 * the file, its links and directories) with their times, sizes and the file's contents, which catches edits in place,
 * renames over it and a swapped link (a Kubernetes secret). A change is taken once two looks in a row agree, and
 * {@link Tokens#readFile} refuses a last line without its newline, so a file still being written is never used half
 * way. A refused file keeps the tokens in use, and its refusal is logged once per change.
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
