package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import dev.plantstore.testkit.PostgresAsPostgres;
import dev.plantstore.testkit.Sockets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A pg_auto_failover formation on this machine, as an operator runs one: a monitor and two PostgreSQL nodes with
 * synchronous replication, each node run by its keeper ({@code pg_autoctl run}) as user {@code postgres}, on free
 * ports, with data under a directory of its own. The monitor's and the keepers' time-outs are shortened (see
 * {@link #MONITOR_SETTINGS}) so that a lost machine is replaced in about 15 s rather than 50. Closing kills every
 * process of the formation and deletes its directory, whatever state it is in.
 */
final class Formation implements AutoCloseable {

    static final Path PG_AUTOCTL = Path.of("/usr/bin/pg_autoctl");
    static final String DATABASE = "plants";
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(90);
    private static final Duration STATE_LIMIT = Duration.ofSeconds(90);

    /**
     * The monitor checks each node every second and calls one unhealthy after 4 s without a report or an answer (20 s
     * by default); it promotes a standby once the old primary has had 6 s to stop taking writes by itself (30 s by
     * default), longer than the keepers' network partition time-out of 3 s (20 s by default) after which a primary
     * that reaches neither the monitor nor its standby demotes itself.
     */
    static final Map<String, String> MONITOR_SETTINGS = Map.of(
            "pgautofailover.health_check_period", "1000",
            "pgautofailover.health_check_timeout", "1000",
            "pgautofailover.health_check_max_retries", "1",
            "pgautofailover.health_check_retry_delay", "500",
            "pgautofailover.node_considered_unhealthy_timeout", "4000",
            "pgautofailover.primary_demote_timeout", "6000");
    static final int NETWORK_PARTITION_TIMEOUT_SECONDS = 3;

    private final PostgresAsPostgres servers;
    private final int monitorPort;
    private final Map<String, Integer> nodePorts = new HashMap<>();
    private final Map<String, Process> keepers = new HashMap<>();

    private Formation(PostgresAsPostgres servers, int monitorPort) {
        this.servers = servers;
        this.monitorPort = monitorPort;
    }

    /** Monitor, node1 (the first primary) and node2, until node2 is node1's synchronous standby. */
    static Formation start() throws Exception {
        var servers = PostgresAsPostgres.prepare(Map.of(PG_AUTOCTL, "pg-auto-failover-cli"));
        var formation = new Formation(servers, Sockets.freePort());
        try {
            formation.startMonitor();
            formation.addNode("node1");
            formation.awaitState("node1", "single");
            formation.addNode("node2");
            formation.awaitState("node1", "primary");
            formation.awaitState("node2", "secondary");
            formation.createWriteCheckTable();
            return formation;
        } catch (Exception | AssertionError e) {
            formation.close();
            throw e;
        }
    }

    private void startMonitor() throws Exception {
        servers.runAsPostgres(COMMAND_LIMIT, PG_AUTOCTL.toString(), "create", "monitor", "--pgdata",
                data("monitor").toString(), "--pgport", Integer.toString(monitorPort), "--hostname", "127.0.0.1",
                "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl");
        keepers.put("monitor", servers.startAsPostgres("monitor.log", PG_AUTOCTL.toString(), "run", "--pgdata",
                data("monitor").toString()));
        boolean up = Poll.until(COMMAND_LIMIT, Duration.ofMillis(100), () -> {
            try (Connection monitor = DriverManager.getConnection(monitorUrl())) {
                return monitor.isValid(2);
            } catch (SQLException e) {
                return false;
            }
        });
        assertTrue(up, "the monitor takes connections:\n" + log("monitor"));
        for (var setting : MONITOR_SETTINGS.entrySet()) {
            setOnMonitor(setting.getKey(), setting.getValue());
        }
    }

    /** Changes one of the monitor's settings as an operator does: {@code ALTER SYSTEM}, then a reload. */
    void setOnMonitor(String setting, String value) throws SQLException {
        try (Connection monitor = DriverManager.getConnection(monitorUrl());
             Statement statement = monitor.createStatement()) {
            statement.execute("ALTER SYSTEM SET " + setting + " = " + value);
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    private String monitorUrl() {
        return "jdbc:postgresql://127.0.0.1:" + monitorPort + "/pg_auto_failover?user=postgres&connectTimeout=2"
                + "&socketTimeout=5";
    }

    /** Creates a node, shortens its keeper's network partition time-out, and starts its keeper. */
    private void addNode(String name) throws Exception {
        int port = Sockets.freePort();
        nodePorts.put(name, port);
        servers.runAsPostgres(COMMAND_LIMIT, PG_AUTOCTL.toString(), "create", "postgres", "--pgdata",
                data(name).toString(), "--pgport", Integer.toString(port), "--hostname", "127.0.0.1", "--listen",
                "127.0.0.1", "--name", name, "--auth", "trust", "--no-ssl", "--dbname", DATABASE, "--monitor",
                "postgres://autoctl_node@127.0.0.1:" + monitorPort + "/pg_auto_failover?sslmode=disable");
        servers.runAsPostgres(COMMAND_LIMIT, PG_AUTOCTL.toString(), "config", "set", "--pgdata", data(name).toString(),
                "timeout.network_partition_timeout", Integer.toString(NETWORK_PARTITION_TIMEOUT_SECONDS));
        startKeeper(name);
    }

    /** Starts the node's keeper again, as an operator does once its machine is back. */
    void startKeeper(String name) throws Exception {
        keepers.put(name, servers.startAsPostgres(name + ".log", PG_AUTOCTL.toString(), "run", "--pgdata",
                data(name).toString()));
    }

    /** The machine of {@code name} lost: its keeper and everything it started (PostgreSQL too), killed at once. */
    void loseMachine(String name) throws InterruptedException {
        Process keeper = keepers.remove(name);
        List<ProcessHandle> tree = keeper.descendants().collect(Collectors.toList());
        tree.add(keeper.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : tree) {
            process.onExit().join();
        }
    }

    /** A planned switchover, as an operator asks for one; returns once the command has finished. */
    void switchover() throws Exception {
        servers.runAsPostgres(COMMAND_LIMIT, PG_AUTOCTL.toString(), "perform", "switchover", "--pgdata",
                data("monitor").toString());
    }

    /** The multi-host URL a service is given: every node, the primary found by the driver. */
    String serviceUrl() {
        return "jdbc:postgresql://127.0.0.1:" + nodePorts.get("node1") + ",127.0.0.1:" + nodePorts.get("node2") + "/"
                + DATABASE + "?user=postgres&targetServerType=primary";
    }

    /** One node's database, whatever its role. */
    String nodeUrl(String name) {
        return "jdbc:postgresql://127.0.0.1:" + nodePorts.get(name) + "/" + DATABASE + "?user=postgres&connectTimeout=1"
                + "&socketTimeout=2";
    }

    /** The state the monitor has assigned {@code name} and the node has reached. */
    Optional<String> state(String name) throws SQLException {
        try (Connection monitor = DriverManager.getConnection(monitorUrl());
             Statement statement = monitor.createStatement();
             ResultSet row = statement.executeQuery("SELECT reportedstate, goalstate FROM pgautofailover.node "
                     + "WHERE nodename = '" + name + "'")) {
            if (!row.next()) {
                return Optional.empty();
            }
            String reported = row.getString(1);
            return reported.equals(row.getString(2)) ? Optional.of(reported) : Optional.of(reported + " -> "
                    + row.getString(2));
        }
    }

    /** Waits, at most {@link #STATE_LIMIT}, until {@code name} has reached {@code state}. */
    void awaitState(String name, String state) throws Exception {
        boolean reached = Poll.until(STATE_LIMIT, Duration.ofMillis(100),
                () -> state(name).filter(state::equals).isPresent());
        assertTrue(reached, name + " reached " + state + "; it is " + state(name) + "\n" + log("monitor")
                + "\n" + log(name));
    }

    /** A table of the test's own, where {@link #takesWrites} writes. */
    private void createWriteCheckTable() throws SQLException {
        try (Connection node = DriverManager.getConnection(nodeUrl("node1"));
             Statement statement = node.createStatement()) {
            statement.execute("CREATE TABLE write_check (at timestamptz)");
        }
    }

    /**
     * Whether {@code name} takes writes now: an insert commits within 1 s and without a warning, so neither read-only
     * nor waiting for a standby. (A transaction that writes nothing, even one with a transaction id, waits for no
     * standby.)
     */
    boolean takesWrites(String name) {
        try (Connection node = DriverManager.getConnection(nodeUrl(name));
             Statement statement = node.createStatement()) {
            statement.setQueryTimeout(1);
            statement.execute("INSERT INTO write_check VALUES (now())");
            return statement.getWarnings() == null;
        } catch (SQLException e) {
            return false;
        }
    }

    /** The monitor's events, oldest first: what it decided for each node, and when. */
    String events() {
        try (Connection monitor = DriverManager.getConnection(monitorUrl());
             Statement statement = monitor.createStatement();
             ResultSet rows = statement.executeQuery("SELECT eventtime, nodename, reportedstate, goalstate, "
                     + "reportedlsn, description FROM pgautofailover.event ORDER BY eventid")) {
            var events = new StringBuilder("the monitor's events:\n");
            while (rows.next()) {
                events.append(rows.getString(1)).append(' ').append(rows.getString(2)).append(' ')
                        .append(rows.getString(3)).append(" -> ").append(rows.getString(4)).append(" at ")
                        .append(rows.getString(5)).append(": ").append(rows.getString(6)).append('\n');
            }
            return events.toString();
        } catch (SQLException e) {
            return "the monitor's events could not be read: " + e;
        }
    }

    String log(String name) {
        try {
            Path log = servers.dir().resolve(name + ".log");
            return Files.exists(log) ? name + "'s log:\n" + Files.readString(log) : "no log of " + name;
        } catch (java.io.IOException e) {
            return "the log of " + name + " could not be read: " + e;
        }
    }

    private Path data(String name) {
        return servers.dir().resolve(name);
    }

    @Override
    public void close() throws java.io.IOException {
        for (Process keeper : keepers.values()) {
            keeper.descendants().forEach(ProcessHandle::destroyForcibly);
            keeper.destroyForcibly();
        }
        servers.close();
    }
}
