package dev.plantstore.app;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The static tokens, read again when the tokens file changes, so that a token is added, renamed or revoked without a
 * restart. The file is looked at every {@link #CHECK_EVERY}: its identity, modification time, size, mode, owner and
 * contents, which change when it is edited in place, replaced by a rename (as editors and configuration tools save),
 * swapped under a symbolic link (as Kubernetes updates a mounted secret), or has its permissions or owner fixed.
 *
 * <p>A changed file is read only once it is stable: two looks in a row, {@link #CHECK_EVERY} apart, must find it the
 * same in all of these, contents included. A file still being written (a line at a time, or a byte at a time) is
 * waited for, not used half-way; and {@link Tokens#readFile} refuses a file whose last line has no newline yet, so
 * even a writer that stalls mid-line longer than the interval never gets a token cut short accepted. The stable file
 * is then checked as at start-up (permissions, owner, tokens); if it is refused, the tokens in use stay and the
 * refusal is logged, once per change.
 */
final class ReloadingTokens implements TokenVerifier, AutoCloseable {

    static final Duration CHECK_EVERY = Duration.ofSeconds(2);

    private static final System.Logger LOG = System.getLogger(ReloadingTokens.class.getName());

    /** What a read of the file reads: the configured tokens as a verifier, or why they were refused. */
    @FunctionalInterface
    interface Reader {
        TokenVerifier read() throws UsageException;
    }

    /**
     * What one look at the file sees; {@code contents} is a digest, empty when the file cannot be read, and
     * {@code mode} and {@code owner} are empty where the file system has no such thing.
     */
    private record Look(Object fileKey, long modifiedMillis, long size, Optional<Set<PosixFilePermission>> mode,
                        Optional<String> owner, Optional<ByteBuffer> contents) {
    }

    private final Path file;
    private final Reader reader;
    private final AtomicReference<TokenVerifier> current;
    private final ScheduledExecutorService watcher;
    /** The file as last read (or refused); a look that finds it so changes nothing. */
    private Optional<Look> lastRead;
    /** A changed file seen once, waiting for a second look that finds it the same. */
    private Optional<Look> changed = Optional.empty();

    private ReloadingTokens(Path file, Reader reader, TokenVerifier first, Optional<Look> firstLook,
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
        Optional<Look> firstLook = look(Objects.requireNonNull(file));
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

    /** One look at the file; nothing it meets may end the schedule. */
    private void check() {
        try {
            reloadIfChangedAndStable();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "checking tokens file " + file + " failed unexpectedly", e);
        }
    }

    /** Only the watcher's thread calls this. */
    private void reloadIfChangedAndStable() {
        Optional<Look> now = look(file);
        if (now.equals(lastRead)) {
            changed = Optional.empty();
            return;
        }
        if (!now.equals(changed)) {
            changed = now;
            return;
        }
        changed = Optional.empty();
        Optional<Look> before = lastRead;
        lastRead = now;
        try {
            TokenVerifier read = reader.read();
            if (!look(file).equals(now)) {
                // Changed again while it was read: what was read may be neither version; the next looks decide.
                lastRead = before;
                return;
            }
            current.set(read);
            LOG.log(System.Logger.Level.INFO, "tokens file " + file + " changed: its tokens are in use");
        } catch (UsageException e) {
            LOG.log(System.Logger.Level.WARNING, "tokens file " + file + " changed but is refused (" + e.getMessage()
                    + "); the tokens read before stay in use");
        }
    }

    private static Optional<Look> look(Path file) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            return Optional.empty();
        }
        Optional<Set<PosixFilePermission>> mode = Optional.empty();
        Optional<String> owner = Optional.empty();
        try {
            PosixFileAttributes posix = Files.readAttributes(file, PosixFileAttributes.class);
            mode = Optional.of(posix.permissions());
            owner = Optional.of(posix.owner().getName());
        } catch (UnsupportedOperationException | IOException e) {
            // No mode or owner to compare: the other fields still tell a change.
        }
        Optional<ByteBuffer> contents;
        try {
            contents = Optional.of(ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(
                    Files.readAllBytes(file))));
        } catch (IOException e) {
            contents = Optional.empty();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
        return Optional.of(new Look(attributes.fileKey(), attributes.lastModifiedTime().toMillis(), attributes.size(),
                mode, owner, contents));
    }
}
