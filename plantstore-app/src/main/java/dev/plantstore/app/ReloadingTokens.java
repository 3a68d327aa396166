package dev.plantstore.app;

import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.Verification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The static tokens, read again when the tokens file changes, so that a token is added, renamed or revoked without a
 * restart. The file is looked at every {@link #CHECK_EVERY}: its modification time, size and identity, which change
 * when it is edited in place, replaced by a rename (as editors and configuration tools save) or swapped under a
 * symbolic link (as Kubernetes updates a mounted secret). A changed file is checked as at start-up, permissions
 * included; if it is refused, the tokens in use stay and the refusal is logged, once per change.
 */
final class ReloadingTokens implements TokenVerifier, AutoCloseable {

    static final Duration CHECK_EVERY = Duration.ofSeconds(2);

    private static final System.Logger LOG = System.getLogger(ReloadingTokens.class.getName());

    /** What a read of the file reads: the configured tokens as a verifier, or why they were refused. */
    @FunctionalInterface
    interface Reader {
        TokenVerifier read() throws UsageException;
    }

    private record Stamp(Object fileKey, long modifiedMillis, long size) {
    }

    private final Path file;
    private final Reader reader;
    private final AtomicReference<TokenVerifier> current;
    private final ScheduledExecutorService watcher;
    private Optional<Stamp> lastSeen;

    private ReloadingTokens(Path file, Reader reader, TokenVerifier first, Duration checkEvery) {
        this.file = file;
        this.reader = reader;
        this.current = new AtomicReference<>(first);
        this.lastSeen = stamp();
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
        return new ReloadingTokens(Objects.requireNonNull(file), reader, reader.read(), checkEvery);
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
            reloadIfChanged();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "checking tokens file " + file + " failed unexpectedly", e);
        }
    }

    /** Only the watcher's thread calls this. */
    private void reloadIfChanged() {
        Optional<Stamp> now = stamp();
        if (now.equals(lastSeen)) {
            return;
        }
        lastSeen = now;
        try {
            current.set(reader.read());
            LOG.log(System.Logger.Level.INFO, "tokens file " + file + " changed: its tokens are in use");
        } catch (UsageException e) {
            LOG.log(System.Logger.Level.WARNING, "tokens file " + file + " changed but is refused (" + e.getMessage()
                    + "); the tokens read before stay in use");
        }
    }

    private Optional<Stamp> stamp() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return Optional.of(new Stamp(attributes.fileKey(), attributes.lastModifiedTime().toMillis(),
                    attributes.size()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
