package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import dev.plantstore.core.jdbc.Write.PlantOp;
import dev.plantstore.core.webhooks.CommittedEvents;
import dev.plantstore.core.webhooks.Outbox;
import dev.plantstore.core.webhooks.PlantEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a batch adds to its transaction to record webhook events in {@code webhook_outbox}: one row per receiver for
 * each create that stored a plant and each delete that removed one, so that the event commits, or rolls back, with
 * the write it reports. With no receiver it adds nothing, and a batch costs what it did without webhooks.
 */
final class EventSql {

    private final List<String> receivers;
    private final CommittedEvents committed;

    EventSql(List<String> receivers, CommittedEvents committed) {
        this.receivers = List.copyOf(receivers);
        this.committed = committed;
    }

    boolean records() {
        return !receivers.isEmpty();
    }

    /** The events of one batch, from its start to its commit. */
    Batch batch() {
        long now = System.currentTimeMillis();
        Long[] leases = new Long[receivers.size()];
        for (int i = 0; i < leases.length; i++) {
            leases[i] = committed.leasedHere(receivers.get(i)) ? now + Outbox.LEASE.toMillis() : 0L;
        }
        return new Batch(now, leases);
    }

    /**
     * The events one batch records: when they are recorded, until when each receiver's are leased to this process (0
     * when they are not), and, once written, what the database made of them.
     */
    final class Batch {

        private final long recordedAtMillis;
        private final Long[] leasedUntilMillis;
        private final List<PlantEvent> written = new ArrayList<>();

        private Batch(long recordedAtMillis, Long[] leasedUntilMillis) {
            this.recordedAtMillis = recordedAtMillis;
            this.leasedUntilMillis = leasedUntilMillis;
        }

        /** Whether the batch records events: false with no receiver, when it adds nothing to the transaction. */
        boolean records() {
            return EventSql.this.records();
        }

        /**
         * Binds the events' parameters after a round's inserts, or after its deletes: {@code writes} are that
         * round's of the kind. Returns the next parameter's index.
         */
        int bindEvents(Connection connection, PreparedStatement statement, int next,
                       List<? extends PlantOp> writes) throws SQLException {
            if (!records()) {
                return next;
            }
            Long[] ids = new Long[writes.size()];
            String[] traceparents = new String[writes.size()];
            String[] tracestates = new String[writes.size()];
            for (int i = 0; i < ids.length; i++) {
                PlantOp write = writes.get(i);
                ids[i] = write.id();
                traceparents[i] = write.trace().map(TraceContext::traceparent).orElse(null);
                tracestates[i] = write.trace().flatMap(TraceContext::tracestate).orElse(null);
            }
            statement.setLong(next, recordedAtMillis);
            statement.setArray(next + 1, connection.createArrayOf("int8", ids));
            statement.setArray(next + 2, connection.createArrayOf("text", traceparents));
            statement.setArray(next + 3, connection.createArrayOf("text", tracestates));
            statement.setArray(next + 4, connection.createArrayOf("text", receivers.toArray()));
            statement.setArray(next + 5, connection.createArrayOf("int8", leasedUntilMillis));
            return next + 6;
        }

        /** Reads the events a statement's results after the current one returned, to the last result. */
        void readRemainingResults(PreparedStatement statement) throws SQLException {
            if (!records()) {
                return;
            }
            while (statement.getMoreResults() || statement.getUpdateCount() != -1) {
                try (ResultSet rows = statement.getResultSet()) {
                    if (rows != null) {
                        StoreSql.readEvents(rows, written);
                    }
                }
            }
        }

        /** For a database that runs a statement per write: records the events of this batch, after each write. */
        Recorder recorder(Connection connection) {
            return new Recorder(connection);
        }

        /** The batch committed: its events are published, the leased ones to be sent from memory. */
        void committed() {
            if (written.isEmpty()) {
                return;
            }
            List<PlantEvent> leased = new ArrayList<>(written.size());
            for (PlantEvent event : written) {
                if (event.leasedUntilMillis() > 0) {
                    leased.add(event);
                }
            }
            committed.publish(leased, leased.size() < written.size());
        }

        /** Prepares its statement on its first event; closing it closes that statement. */
        final class Recorder implements AutoCloseable {

            private final Connection connection;
            private PreparedStatement insert;

            private Recorder(Connection connection) {
                this.connection = connection;
            }

            /** The plant was stored: {@code changed} rows say whether it was. */
            void created(int changed, PlantOp.InsertIfAbsent insert) throws SQLException {
                if (changed > 0) {
                    record(PlantEvent.CREATED, insert.id(), insert.plant(), insert.trace());
                }
            }

            /** A delete removed {@code changed} rows. */
            void deleted(int changed, PlantOp delete) throws SQLException {
                if (changed > 0) {
                    record(PlantEvent.DELETED, delete.id(), null, delete.trace());
                }
            }

            private void record(String type, long id, Plant plant, Optional<TraceContext> trace) throws SQLException {
                if (!records()) {
                    return;
                }
                if (insert == null) {
                    insert = connection.prepareStatement(SqliteSql.RECORD_EVENT);
                }
                for (int i = 0; i < receivers.size(); i++) {
                    insert.setString(1, receivers.get(i));
                    insert.setLong(2, id);
                    insert.setString(3, type);
                    insert.setString(4, plant == null ? null : plant.name());
                    insert.setString(5, plant == null ? null : plant.tag());
                    insert.setLong(6, recordedAtMillis);
                    insert.setLong(7, leasedUntilMillis[i]);
                    insert.setString(8, trace.map(TraceContext::traceparent).orElse(null));
                    insert.setString(9, trace.flatMap(TraceContext::tracestate).orElse(null));
                    try (ResultSet rows = insert.executeQuery()) {
                        StoreSql.readEvents(rows, written);
                    }
                }
            }

            @Override
            public void close() throws SQLException {
                if (insert != null) {
                    insert.close();
                }
            }
        }
    }
}
