package dev.plantstore.app;

import static dev.plantstore.app.Faults.ENV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.ClosedLoopClients;
import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar on a real PostgreSQL that crashes, stops, drops off the network, has its connections cut or runs out of
 * them. Every fault is real: the database server is crashed and stopped with {@code pg_ctlcluster}, the network is a
 * proxy that stops forwarding, the connection limit is reached by real connections.
 */
@Tag("heavy")
@Tag("alone")
class PostgresFaultsIT {

    /** Longer than the store's 5 s bound, so that requests time out against it, not only fail fast. */
    private static final Duration OUTAGE = Duration.ofSeconds(7);
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private TestPostgres postgres;
    private final String applicationName = "plantstore-fault-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void schema() {
        Faults.requireRoot();
        postgres = TestPostgres.freshSchema();
    }

    @AfterEach
    void dropSchema() throws Exception {
        if (postgres != null) {
            startPostgres();
            postgres.close();
        }
    }

    @Test
    void aCrashUnderLoadLosesNoAcknowledgedWriteAndTheServerRecoversByItself() throws Exception {
        var ids = new Faults.Ids(1);
        String output;
        try (RunningJar jar = start(postgres.schemaUrl())) {
            var load = ClosedLoopClients.start("fault-load", 4, (client, step) -> {
                ids.send(jar);
                return true;
            });
            try {
                Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> ids.acknowledged().size() >= 50);
                cluster("restart", "-m", "immediate");
                Faults.assertRecoversBy("PostgreSQL crashed under load", jar, ids);
                int acknowledgedAfterRecovery = ids.acknowledged().size();
                Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20),
                        () -> ids.acknowledged().size() >= acknowledgedAfterRecovery + 50);
            } finally {
                load.close();
            }
            ids.assertEveryAnswerAsPromised();
            output = jar.stopAndCollectOutput();
        }
        assertStored(ids.acknowledged());
        Faults.assertFaultLoggedAsAFewJsonLines(output);
    }

    @Test
    void aDatabaseStoppedLongerThanTheTimeOutIs503ThenTheServerRecoversByItself() throws Exception {
        assertOutageSurvived("PostgreSQL stopped for 7 s", postgres.schemaUrl(), Duration.ofSeconds(10),
                () -> cluster("stop", "-m", "fast"), this::startPostgres);
    }

    @Test
    void aBlackHoledNetworkIs503WithinTheBoundThenTheServerRecoversOnceItHeals() throws Exception {
        try (var proxy = new TcpProxy(postgres.host(), postgres.port())) {
            assertOutageSurvived("network to PostgreSQL black-holed for 7 s", postgres.schemaUrlThrough(proxy.port()),
                    Duration.ofSeconds(15), proxy::blackHole, proxy::forward);
        }
    }

    @Test
    void cutConnectionsAre503ThenTheServerRecoversOnceTheDatabaseCanBeReachedAgain() throws Exception {
        try (var proxy = new TcpProxy(postgres.host(), postgres.port())) {
            assertOutageSurvived("connections to PostgreSQL cut and refused for 7 s",
                    postgres.schemaUrlThrough(proxy.port()), Duration.ofSeconds(10), proxy::refuse, proxy::forward);
        }
    }

    @Test
    void theDatabaseAtItsConnectionLimitIs503ThenTheServerRecoversOnceConnectionsAreFree() throws Exception {
        try (var others = new ConnectionHog()) {
            assertOutageSurvived("PostgreSQL at its connection limit for 7 s", postgres.schemaUrl(),
                    Duration.ofSeconds(10), others::start, others::close);
        }
    }

    /** A step of a fault: making it, or ending it. */
    @FunctionalInterface
    private interface FaultStep {
        void run() throws Exception;
    }

    /**
     * The server on {@code storeUrl} through an outage that {@code begin} starts and {@code end} ends: refused within
     * {@code refusedWithin}, each request answered as promised for {@link #OUTAGE}, unhealthy but alive meanwhile,
     * recovered by itself after, every acknowledged create stored, the fault a few log lines.
     */
    private void assertOutageSurvived(String fault, String storeUrl, Duration refusedWithin, FaultStep begin,
                                      FaultStep end) throws Exception {
        var ids = new Faults.Ids(1);
        String output;
        try (RunningJar jar = start(storeUrl)) {
            assertEquals(200, ids.send(jar).status());
            begin.run();
            Faults.awaitRefusal(jar, ids, refusedWithin);
            sendFor(jar, ids, OUTAGE);
            Faults.assertUnhealthyButAlive(jar);
            end.run();
            Faults.assertRecoversBy(fault, jar, ids);
            ids.assertEveryAnswerAsPromised();
            output = jar.stopAndCollectOutput();
        }
        assertStored(ids.acknowledged());
        Faults.assertFaultLoggedAsAFewJsonLines(output);
    }

    private RunningJar start(String storeUrl) throws Exception {
        return RunningJar.start(dir, ENV, "--store", storeUrl + "&ApplicationName=" + applicationName,
                "--log-format", "json");
    }

    /** Creates one after another for {@code period}, each answered as promised. */
    private static void sendFor(RunningJar jar, Faults.Ids ids, Duration period) throws InterruptedException {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - end < 0) {
            ids.send(jar);
        }
    }

    /**
     * Other clients holding every connection the database allows (superuser ones, so the reserved slots go too). The
     * server's pooled connections are ended, as a database restart would end them, and every slot that comes free is
     * taken at once, for as long as the fault lasts: the server's pool, and any other client of the database, tries to
     * take a slot back as soon as one is free.
     */
    private final class ConnectionHog implements AutoCloseable {
        private final List<Connection> taken = new ArrayList<>();
        private final Thread hog = new Thread(this::run, "connection-hog");
        private volatile boolean running = true;
        private volatile SQLException failure;

        void start() throws Exception {
            takeUntilTheLimit();
            assertTrue(taken.size() > 1, "connections were taken before the limit: " + taken.size());
            hog.start();
            boolean serverHasNone = Poll.until(Duration.ofSeconds(20), Duration.ofMillis(10),
                    () -> failure == null && serverConnections() == 0);
            assertTrue(serverHasNone, "the server was left without a connection; " + failure);
        }

        private void run() {
            try {
                while (running) {
                    try (Statement terminate = taken.get(0).createStatement()) {
                        terminate.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                + "WHERE application_name = '" + applicationName + "'");
                    }
                    takeUntilTheLimit();
                    Thread.sleep(5);
                }
            } catch (SQLException e) {
                failure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private int serverConnections() throws SQLException {
            synchronized (taken) {
                try (Statement count = taken.get(taken.size() - 1).createStatement();
                     ResultSet result = count.executeQuery("SELECT count(*) FROM pg_stat_activity "
                             + "WHERE application_name = '" + applicationName + "'")) {
                    result.next();
                    return result.getInt(1);
                }
            }
        }

        private void takeUntilTheLimit() throws SQLException {
            try {
                while (taken.size() < 1_000) {
                    Connection connection = DriverManager.getConnection(postgres.databaseUrl());
                    synchronized (taken) {
                        taken.add(connection);
                    }
                }
            } catch (SQLException full) {
                if (!"53300".equals(full.getSQLState())) {
                    throw full;
                }
            }
        }

        @Override
        public void close() throws SQLException {
            running = false;
            try {
                hog.join(10_000);
            } catch (InterruptedException e) {
                hog.interrupt();
                Thread.currentThread().interrupt();
            }
            synchronized (taken) {
                for (Connection connection : taken) {
                    connection.close();
                }
            }
            assertTrue(failure == null, "the other clients failed: " + failure);
        }
    }

    private void assertStored(Set<Long> acknowledged) throws SQLException {
        try (Connection connection = DriverManager.getConnection(postgres.schemaUrl());
             PreparedStatement count = connection.prepareStatement(
                     "SELECT count(*) FROM plants WHERE id = ANY (?)")) {
            Array ids = connection.createArrayOf("int8", acknowledged.toArray());
            count.setArray(1, ids);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                assertEquals(acknowledged.size(), result.getInt(1), "every acknowledged create is stored");
            }
        }
        assertTrue(acknowledged.size() >= 2, "creates were acknowledged before and after the fault");
    }

    private static void cluster(String... action) throws Exception {
        List<String> command =
                new ArrayList<>(List.of("pg_ctlcluster", "--skip-systemctl-redirect", version(), "main"));
        command.addAll(List.of(action));
        Faults.run(COMMAND_LIMIT, command.toArray(String[]::new));
    }

    /** Starts the cluster unless it runs, and waits until it takes connections. */
    private void startPostgres() throws Exception {
        if (!Faults.run(COMMAND_LIMIT, "pg_lsclusters", "--no-header").contains("online")) {
            cluster("start");
        }
        boolean up = Poll.until(COMMAND_LIMIT, Duration.ofMillis(100), () -> {
            try (Connection connection = DriverManager.getConnection(postgres.databaseUrl())) {
                return connection.isValid(2);
            } catch (SQLException e) {
                return false;
            }
        });
        assertTrue(up, "PostgreSQL takes connections again");
    }

    private static String version() throws Exception {
        try (var versions = Files.list(Path.of("/etc/postgresql"))) {
            return versions.map(path -> path.getFileName().toString()).sorted().findFirst().orElseThrow();
        }
    }
}
