package dev.plantstore.app;

import static dev.plantstore.app.Options.STORE;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar plantstore.jar backup FILE [OPTIONS]}: a consistent copy of a SQLite store into a new file, taken
 * while the server runs. SQLite's {@code VACUUM INTO} reads one snapshot of the database, as any read does, without
 * stopping the server's writes (in write-ahead-log mode a reader and the writer do not wait for each other); the copy
 * holds every write committed before it began and none after. The copy is compacted, and synced to disk before the
 * command says it is done.
 */
final class BackupCommand {

    static final String NAME = "backup";
    private static final String USAGE = "usage: java -jar plantstore.jar backup FILE --store sqlite:PATH (FILE must "
            + "not exist)";

    private BackupCommand() {
    }

    /** Runs the command; returns the exit status: 0 done, 1 the copy failed, 2 a usage error. */
    static int run(List<String> args, Map<String, String> env) {
        if (args.isEmpty() || args.get(0).startsWith("-")) {
            System.err.println("plantstore: " + USAGE);
            return 2;
        }
        Path target = Path.of(args.get(0));
        Options options;
        try {
            options = Options.parse(args.subList(1, args.size()), env);
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
        if (!(options.get(STORE) instanceof StoreSpec.Sqlite sqlite)) {
            System.err.println("plantstore: backup copies a SQLite store (--store sqlite:PATH); back up PostgreSQL "
                    + "with its own tools (pg_dump)");
            return 2;
        }
        if (Files.exists(target)) {
            System.err.println("plantstore: " + target + " exists; the backup goes into a new file");
            return 2;
        }
        if (!Files.isRegularFile(sqlite.file())) {
            System.err.println("plantstore: there is no store at " + sqlite.file());
            return 1;
        }
        try (Connection connection = OpenStore.sqlite(sqlite.file()).getConnection();
             PreparedStatement copy = connection.prepareStatement("VACUUM INTO ?")) {
            copy.setString(1, target.toString());
            copy.execute();
            try (FileChannel file = FileChannel.open(target, StandardOpenOption.WRITE)) {
                file.force(true);
            }
        } catch (SQLException | IOException e) {
            System.err.println("plantstore: cannot back up store sqlite:" + sqlite.file() + " into " + target + ": "
                    + Failures.rootMessage(e));
            return 1;
        }
        System.out.println("store sqlite:" + sqlite.file() + " copied into " + target);
        return 0;
    }
}
