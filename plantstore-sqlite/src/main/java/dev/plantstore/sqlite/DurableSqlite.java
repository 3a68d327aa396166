package dev.plantstore.sqlite;

import java.nio.file.Path;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The SQLite settings the server runs with, which {@link SqliteFile} opens a file with: in a module of its own, so
 * that plantstore-core's tests of the JDBC store run on exactly the server's settings (the core library has no
 * driver, and its tests cannot depend on the server).
 */
public final class DurableSqlite {

    static final int WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

    private DurableSqlite() {
    }

    /**
     * Every acknowledged write on disk: write-ahead log with a full sync at each commit; a writer finding the file
     * locked waits up to 5 s rather than failing at once. Once checkpointed, the write-ahead log is cut back to
     * {@value #WAL_SIZE_LIMIT_BYTES} bytes, about what the automatic checkpoint lets it grow to, so it never keeps
     * more of the disk than that for long. A transaction takes the write lock when it begins
     * (IMMEDIATE): one that read first and wrote later would fail at once, without waiting, if another connection (the
     * {@code webhooks redeliver} command's, say) had committed in between.
     */
    public static SQLiteDataSource dataSource(Path file) {
        var config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.setBusyTimeout(5_000);
        config.setJournalSizeLimit(WAL_SIZE_LIMIT_BYTES);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        var dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file);
        return dataSource;
    }
}
