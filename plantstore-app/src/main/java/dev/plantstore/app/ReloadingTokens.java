package dev.plantstore.app;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The static tokens, read again when the tokens file changes, so that a token is added, renamed or revoked without a
 * restart. The file is looked at every {@link #CHECK_EVERY}: the identity, modification time, size, mode and owner of
 * each path a read checks ({@link PrivateFile}: the file, the links on the way, their directories) and the file's
 * contents, which change when it is edited in place, replaced by a rename (as editors and configuration tools save),
 * swapped under a symbolic link (as Kubernetes updates a mounted secret), or has its permissions or owner fixed. A
 * look opens nothing but a regular file of at most {@link PrivateFile#MAX_BYTES}, and reads that in blocks.
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

    private final Path file;
    private final Reader reader;
    private final AtomicReference<TokenVerifier> current;
    private final ScheduledExecutorService watcher;
    /** The file as last read (or refused); a look that finds it so changes nothing. */
    private Optional<PrivateFile.Look> lastRead;
    /** A changed file seen once, waiting for a second look that finds it the same. */
    private Optional<PrivateFile.Look> changed = Optional.empty();
    /** Whether the last check failed unexpectedly: such a failure is logged when it starts and when it ends. */
    private boolean failing;

    private ReloadingTokens(Path file, Reader reader, TokenVerifier first, Optional<PrivateFile.Look> firstLook,
                            Duration checkEvery) {
        this.file = file;
        this.reader = reader;
        this.current = new AtomicReference<>(first);
        this.lastRead = firstLook;
        this.watcher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "plantstore-tokens-file");
            thread.setDaemon(true);
            return thread;
        });
        watcher.scheduleWithFixedDelay(this::check, checkEvery.toNanos(), checkEvery.toNanos(),
                TimeUnit.NANOSECONDS);
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
        watcher.shutdownNow();
    }

    /**
     * One look at the file. Nothing it meets may end the schedule, an Error included: the executor would cancel the
     * task silently, and the tokens in use would never change again. Running out of memory or a defect is a state,
     * logged when it starts and when it ends, not at each look.
     */
    private void check() {
        try {
            reloadIfChangedAndStable();
            // A look that only saw the file change is no success yet: the read it awaits may fail as before.
            if (failing && changed.isEmpty()) {
                failing = false;
                LOG.log(System.Logger.Level.INFO, "checking tokens file " + file + " works again");
            }
        } catch (Throwable e) {
            if (!failing) {
                failing = true;
                LOG.log(System.Logger.Level.ERROR, "checking tokens file " + file + " failed (" + e
                        + "); the tokens read before stay in use, and the file is still watched");
            }
        }
    }

    /** Only the watcher's thread calls this. A failure other than a refusal leaves the file to be read again. */
    private void reloadIfChangedAndStable() {
        Optional<PrivateFile.Look> now = PrivateFile.look(file);
        if (now.equals(lastRead)) {
            changed = Optional.empty();
            return;
        }
        if (!now.equals(changed)) {
            changed = now;
            return;
        }
        changed = Optional.empty();
        TokenVerifier read;
        try {
            read = reader.read();
        } catch (UsageException e) {
            lastRead = now;
            LOG.log(System.Logger.Level.WARNING, "tokens file " + file + " changed but is refused (" + e.getMessage()
                    + "); the tokens read before stay in use");
            return;
        }
        if (!PrivateFile.look(file).equals(now)) {
            // Changed again while it was read: what was read may be neither version; the next looks decide.
            return;
        }
        lastRead = now;
        current.set(read);
        LOG.log(System.Logger.Level.INFO, "tokens file " + file + " changed: its tokens are in use");
    }
}
