package dev.plantstore.core.jdbc;

import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * On SQLite, this process's write transactions one at a time, in the order they asked. SQLite lets one writer in and
 * has the others poll, sleeping up to 100 ms between tries: the store's writer, which commits batch after batch,
 * kept the webhook delivery's removals waiting for seconds, and its events with them. On PostgreSQL, whose rows lock
 * one by one, each goes at once.
 */
final class WriteTurns {

    /** Work on the database that throws what JDBC throws. */
    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    private final ReentrantLock turn;

    private WriteTurns(ReentrantLock turn) {
        this.turn = turn;
    }

    static WriteTurns of(Dialect dialect) {
        return new WriteTurns(switch (dialect) {
            case POSTGRESQL -> null;
            case SQLITE -> new ReentrantLock(true);
        });
    }

    <T> T take(Work<T> work) throws SQLException {
        if (turn == null) {
            return work.run();
        }
        turn.lock();
        try {
            return work.run();
        } finally {
            turn.unlock();
        }
    }
}
