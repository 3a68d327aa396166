package dev.plantstore.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.core.CommitListener;
import dev.plantstore.core.EventSink;
import dev.plantstore.core.JdbcSchema;
import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.Webhooks;
import dev.plantstore.sqlite.DurableSqlite;
import dev.plantstore.sqlite.SqliteFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;

/**
 * Opens the store the server runs on. What it holds open (a file lock, a connection pool, the store itself) is recorded
 * in the server's {@link Closing} as it opens, so that one call closes it with everything else, the store first.
 */
final class OpenStore {

    /** A command run beside the servers (migrate, webhooks) does one thing at a time, on one connection. */
    static final int COMMAND_POOL_SIZE = 1;

    /** How long a PostgreSQL connection may take to obtain before the request gets its 503. */
    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);

    private OpenStore() {
    }

    /**
     * How the server may use its database.
     *
     * @param migrate  whether it may create and migrate the store's tables, else it only checks their version
     * @param poolSize PostgreSQL connections it keeps at most
     */
    record Access(boolean migrate, int poolSize) {

        static Access of(Options options) {
            return new Access(options.get(Options.MIGRATE), options.get(Options.DB_POOL_SIZE));
        }
    }

    /**
     * Opens the store {@code spec} names, using the database as {@code access} allows, telling {@code commits} of each
     * group commit of a database store, and sending plant events to {@code webhooks} and {@code sinks} when given.
     * Each thing it opens is recorded in {@code closing}; a failure part-way leaves what was opened before it recorded
     * there, for the caller to close with the rest.
     *
     * @throws StartupException with a one-line reason that never contains credentials: the store is in use, the
     *                          database is unreachable, its schema is newer than this release
     */
    static PlantStore open(StoreSpec spec, Access access, Options.Secrets secrets, CommitListener commits,
                           Optional<Webhooks> webhooks, List<EventSink> sinks, Closing closing)
            throws StartupException {
        try {
            PlantStore store;
            if (spec instanceof StoreSpec.Sqlite sqlite) {
                closing.opened("the store's lock file", lockExclusively(sqlite.file()), OpenStore::release);
                SqliteNativeLibrary.load();
                SqliteFile file = closing.opened("the store's connections", SqliteFile.open(sqlite.file()),
                        SqliteFile::close);
                store = jdbc(spec, file, access, commits, webhooks, sinks);
            } else if (spec instanceof StoreSpec.Postgres postgres) {
                HikariDataSource pool = closing.opened("the store's connections",
                        postgresPool(postgres, secrets, access.poolSize()), HikariDataSource::close);
                store = jdbc(spec, pool, access, commits, webhooks, sinks);
            } else if (webhooks.isPresent()) {
                store = PlantStores.inMemory(webhooks.get(), sinks);
            } else if (!sinks.isEmpty()) {
                store = PlantStores.inMemory(sinks);
            } else {
                store = PlantStores.inMemory();
            }
            return closing.opened("the store", store, PlantStore::close);
        } catch (RuntimeException e) {
            throw new StartupException(cannotOpen(spec, e));
        }
    }

    /** The line that says {@code spec} failed to open, for the server and the commands alike. */
    static String cannotOpen(StoreSpec spec, Throwable failure) {
        return "cannot open store " + describe(spec) + ": " + reason(spec, failure);
    }

    /**
     * The innermost reason for {@code failure} on {@code spec}, fit for a message: a PostgreSQL URL's credentials,
     * which the driver may quote, are masked.
     */
    static String reason(StoreSpec spec, Throwable failure) {
        String reason = Failures.rootMessage(failure);
        return spec instanceof StoreSpec.Postgres postgres ? postgres.masked(reason) : reason;
    }

    private static PlantStore jdbc(StoreSpec spec, DataSource pool, Access access, CommitListener commits,
                                   Optional<Webhooks> webhooks, List<EventSink> sinks) throws StartupException {
        if (!access.migrate()) {
            requireCurrentSchema(spec, pool);
        }
        var settings = JdbcStoreSettings.defaults().withListener(commits).withMigratesSchema(access.migrate());
        for (EventSink sink : sinks) {
            settings = settings.withSink(sink);
        }
        return PlantStores.jdbc(pool, webhooks.map(settings::withWebhooks).orElse(settings));
    }

    /** With {@code --migrate off}, a database behind this release is refused with the command that migrates it. */
    private static void requireCurrentSchema(StoreSpec spec, DataSource dataSource) throws StartupException {
        int version = JdbcSchema.version(dataSource);
        if (version < JdbcSchema.currentVersion()) {
            throw new StartupException("store " + describe(spec) + (version == 0 ? " has no tables"
                    : " is at schema version " + version + ", behind this release's " + JdbcSchema.currentVersion())
                    + ", and --migrate is off: run java -jar plantstore.jar migrate with this --store as the schema's"
                    + " owner first");
        }
    }

    static String describe(StoreSpec spec) {
        if (spec instanceof StoreSpec.Sqlite sqlite) {
            return "sqlite:" + sqlite.file();
        }
        if (spec instanceof StoreSpec.Postgres postgres) {
            return postgres.redacted();
        }
        return "memory";
    }

    /**
     * The SQLite store in {@code file}, for a command: the native library is loaded first, as {@link #open} loads it,
     * so that the driver never cleans up the copies other processes unpacked in the temporary folder.
     */
    static SQLiteDataSource sqlite(Path file) {
        SqliteNativeLibrary.load();
        return DurableSqlite.dataSource(file);
    }

    /**
     * SQLite keeps a database consistent under concurrent processes, but two servers each batching writes in their
     * own order would make each other wait and time out. A lock on a side file, held while the server runs, makes the
     * second one stop at start with a clear message instead.
     *
     * <p>The side file is named after the file a symbolic link leads to, as SQLite follows the link too, so that a
     * server started on the link meets the same lock. A file with a second hard link is refused: no name is the
     * file's own to find the lock from, and SQLite keeps a write-ahead log per name, so two servers on two names would
     * checkpoint over each other's plants.
     */
    static FileChannel lockExclusively(Path database) throws StartupException {
        Path file = linkedFile(database);
        requireOneName(database, file);
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (!locked(channel)) {
                channel.close();
                throw new StartupException("store sqlite:" + database + " is in use by another process (it holds "
                        + lockFile + ")");
            }
            return channel;
        } catch (NoSuchFileException e) {
            throw new StartupException("cannot open store sqlite:" + database + ": its directory does not exist");
        } catch (AccessDeniedException e) {
            throw new StartupException("cannot open store sqlite:" + database + ": permission denied on " + lockFile);
        } catch (IOException e) {
            if (channel != null) {
                closeAfterFailure(channel);
            }
            throw new StartupException("cannot open store sqlite:" + database + ": " + e.getMessage());
        }
    }

    /**
     * The file a symbolic link {@code database} leads to, else {@code database} itself. A link to nothing is refused:
     * SQLite would create the file under its own name, whose lock a server started on the link never takes.
     */
    private static Path linkedFile(Path database) throws StartupException {
        if (!Files.isSymbolicLink(database)) {
            return database;
        }
        try {
            return database.toRealPath();
        } catch (NoSuchFileException e) {
            throw new StartupException("cannot open store sqlite:" + database + ": it is a symbolic link to a file "
                    + "that does not exist: name the file itself to create the store");
        } catch (IOException e) {
            throw new StartupException("cannot open store sqlite:" + database + ": " + e.getMessage());
        }
    }

    private static void requireOneName(Path database, Path file) throws StartupException {
        if (!Files.isRegularFile(file)) {
            return;
        }
        try {
            int names = (Integer) Files.getAttribute(file, "unix:nlink");
            if (names > 1) {
                throw new StartupException("store sqlite:" + database + " has " + names + " hard links, and a server "
                        + "on another of its names would not see this one's lock: keep one name (find / -samefile "
                        + file.toRealPath() + " lists them)");
            }
        } catch (IOException e) {
            throw new StartupException("cannot open store sqlite:" + database + ": " + e.getMessage());
        }
    }

    /** The PostgreSQL pool of {@code size} connections: the writer's batches, reads, health checks and deliveries. */
    static HikariDataSource postgresPool(StoreSpec.Postgres spec, Options.Secrets secrets, int size) {
        return new HikariDataSource(postgresConfig(spec, secrets, size));
    }

    /**
     * The server's pool settings: a host that does not take the connection is left after 2 s for the next, a refusal
     * is reported at once, and no answer, a login's included, is awaited past 10 s.
     */
    static HikariConfig postgresConfig(StoreSpec.Postgres spec, Options.Secrets secrets, int size) {
        var config = new HikariConfig();
        config.setPoolName("plantstore");
        config.setJdbcUrl(spec.url());
        secrets.databaseUser().ifPresent(config::setUsername);
        secrets.databasePassword().ifPresent(config::setPassword);
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        config.setValidationTimeout(1_000);
        // One attempt to connect while the pool is built, in this thread: a database that refuses (down, unknown,
        // wrong password) is reported at once. Waiting for the pool's connection time-out instead, and then for its
        // background filler to stop, took 5.6 s to say the same.
        config.setInitializationFailTimeout(1);
        config.addDataSourceProperty("connectTimeout", "2");
        // The login's clock runs from before the driver loads its classes: on a starved machine a cold JVM spent more
        // than 2 s on a login to an idle database, and a server that gives up its start on that does not come up.
        config.addDataSourceProperty("loginTimeout", "10");
        config.addDataSourceProperty("socketTimeout", "10");
        return config;
    }

    /** Whether {@code channel}'s file is now locked by it: not when another process, or this one, holds it. */
    private static boolean locked(FileChannel channel) throws IOException {
        try {
            return channel.tryLock() != null;
        } catch (OverlappingFileLockException e) {
            return false;
        }
    }

    static void release(FileChannel lockFile) {
        try {
            lockFile.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeAfterFailure(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // The failure that made the open give up is the one to report; this one would only hide it.
        }
    }
}
