package dev.plantstore.core.jdbc;

import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * PostgreSQL committed a transaction on its own disk but warned that a standby may not have it: a wait for synchronous
 * replication was cancelled, by the statement's time-out or by an operator. Should this server be lost now, the
 * standby that takes over may not hold the writes, so their outcome is unknown and no caller is told they succeeded.
 */
final class CommitNotReplicatedException extends SQLException {

    private static final long serialVersionUID = 1L;

    private CommitNotReplicatedException(SQLWarning warning) {
        super("the commit might not have been replicated to a synchronous standby: " + warning.getMessage(),
                warning.getSQLState(), warning);
    }

    /**
     * Throws when {@code warnings}, those the commit raised, hold a warning (SQL state class 01). PostgreSQL raises
     * none on a commit it completed, except when it gave up waiting for synchronous replication; the class is checked
     * rather than the text, which the server's language setting translates.
     */
    static void throwIfWarned(SQLWarning warnings) throws CommitNotReplicatedException {
        for (SQLWarning warning = warnings; warning != null; warning = warning.getNextWarning()) {
            String state = warning.getSQLState();
            if (state != null && state.startsWith("01")) {
                throw new CommitNotReplicatedException(warning);
            }
        }
    }
}
