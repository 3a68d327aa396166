package dev.plantstore.app;

import static dev.plantstore.app.Options.LOG_FORMAT;
import static dev.plantstore.app.Options.STORE;

import com.zaxxer.hikari.HikariDataSource;
import dev.plantstore.core.JdbcSchema;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * {@code java -jar plantstore.jar migrate [OPTIONS]}: creates the store's tables or migrates them to this release's
 * schema version, and exits. Run with the schema owner's credentials, it lets the servers run with {@code --migrate
 * off} as a database user that only reads and writes rows. It takes the server's options and environment, so it opens
 * the database the server does; a SQLite file in use by a server is refused, as a second server would be, and one
 * that does not exist is created only with {@code --create}. On PostgreSQL it may run beside servers, and beside
 * another migration: each step runs once.
 */
final class MigrateCommand {

    static final String NAME = "migrate";
    /** Its one option of its own: a SQLite file that does not exist is created rather than refused. */
    private static final String CREATE = "--create";
    private static final String USAGE = "usage: java -jar plantstore.jar migrate [--create] --store sqlite:PATH|"
            + "jdbc:postgresql:... (the server's options; PostgreSQL credentials from PLANTSTORE_DB_USER and "
            + "PLANTSTORE_DB_PASSWORD; --create makes a SQLite file that does not exist)";

    private MigrateCommand() {
    }

    /**
     * Runs the command; returns the exit status: 0 done (one line says from which version to which), 1 the database
     * failed or is newer than this release, 2 a usage error (a SQLite store that does not exist, without
     * {@code --create}, among them).
     */
    static int run(List<String> args, Map<String, String> env) {
        boolean create = args.contains(CREATE);
        Options options;
        try {
            options = Options.parse(args.stream().filter(arg -> !arg.equals(CREATE)).toList(), env);
        } catch (UsageException e) {
            System.err.println("plantstore: " + e.getMessage());
            return 2;
        }
        if (options.action().isPresent()) {
            System.out.println(switch (options.action().get()) {
                case HELP -> USAGE;
                case VERSION -> BuildInfo.OF_THIS_BUILD.line();
            });
            return 0;
        }
        StoreSpec store = options.get(STORE);
        if (!(store instanceof StoreSpec.Sqlite) && !(store instanceof StoreSpec.Postgres)) {
            System.err.println("plantstore: migrate needs --store sqlite:PATH or jdbc:postgresql:...; the memory store "
                    + "has no schema");
            return 2;
        }
        if (store instanceof StoreSpec.Sqlite sqlite && !create && !Files.exists(sqlite.file())) {
            // Opening it would make a new, empty store, reported as migrated from version 0: a typo would look done.
            System.err.println("plantstore: store " + OpenStore.describe(store) + " does not exist: name the store "
                    + "the server runs on, or add " + CREATE + " to make a new, empty one");
            return 2;
        }
        // The steps log their progress through the server's logger, in the server's format.
        Console out = Console.install(options.get(LOG_FORMAT));
        var closing = new Closing();
        try {
            JdbcSchema.Migration done = JdbcSchema.migrate(dataSource(store, Options.secrets(env), closing));
            out.println(done.from() == done.to()
                    ? "store " + OpenStore.describe(store) + " is at schema version " + done.to() + " already"
                    : "store " + OpenStore.describe(store) + " migrated from schema version " + done.from() + " to "
                            + done.to());
            return 0;
        } catch (StartupException e) {
            return failed(out, e.getMessage());
        } catch (RuntimeException e) {
            String reason = Failures.rootMessage(e);
            if (store instanceof StoreSpec.Postgres postgres) {
                reason = postgres.masked(reason);
            }
            return failed(out, "cannot migrate store " + OpenStore.describe(store) + ": " + reason);
        } finally {
            closing.closeAll(out::println);
        }
    }

    private static int failed(Console out, String message) {
        out.flush();
        System.err.println("plantstore: " + message);
        return 1;
    }

    private static DataSource dataSource(StoreSpec store, Options.Secrets secrets, Closing closing)
            throws StartupException {
        if (store instanceof StoreSpec.Sqlite sqlite) {
            closing.opened("the store's lock file", OpenStore.lockExclusively(sqlite.file()), OpenStore::release);
            return OpenStore.sqlite(sqlite.file());
        }
        var config = OpenStore.postgresConfig((StoreSpec.Postgres) store, secrets, OpenStore.COMMAND_POOL_SIZE);
        // A step may rewrite a large table for longer than the server waits for any answer; the operator watches it.
        config.addDataSourceProperty("socketTimeout", "0");
        return closing.opened("the store's connections", new HikariDataSource(config), HikariDataSource::close);
    }
}
