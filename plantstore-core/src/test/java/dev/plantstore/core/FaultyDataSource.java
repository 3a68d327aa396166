package dev.plantstore.core;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** A real data source whose next connection can be made to throw, or to wait until released. */
public final class FaultyDataSource implements DataSource {

    private final DataSource real;
    private final AtomicReference<Throwable> nextFailure = new AtomicReference<>();
    private final AtomicReference<CountDownLatch> gate = new AtomicReference<>();
    private final CountDownLatch waiting = new CountDownLatch(1);

    public FaultyDataSource(DataSource real) {
        this.real = real;
    }

    /** The next {@link #getConnection()} throws this, even an {@link Error}. */
    public void failNextWith(Throwable failure) {
        nextFailure.set(failure);
    }

    /** Every {@link #getConnection()} from now waits until {@link #open()}, or fails if its thread is interrupted. */
    public void close() {
        gate.set(new CountDownLatch(1));
    }

    public void open() {
        gate.getAndSet(null).countDown();
    }

    /** Blocks until some {@link #getConnection()} waits at the closed gate. */
    public void awaitWaiter() throws InterruptedException {
        waiting.await();
    }

    @Override
    public Connection getConnection() throws SQLException {
        Throwable failure = nextFailure.getAndSet(null);
        if (failure instanceof SQLException sql) {
            throw sql;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        CountDownLatch closed = gate.get();
        if (closed != null) {
            waiting.countDown();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for a connection", e);
            }
        }
        return real.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return real.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        real.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        real.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return real.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return real.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return real.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return real.isWrapperFor(type);
    }
}
